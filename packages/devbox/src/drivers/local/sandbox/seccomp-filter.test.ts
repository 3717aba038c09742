import { existsSync, mkdirSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../../logger.ts'
import { createTestBoxExec, hasBubblewrap } from '../../../testing/devbox-support.ts'
import { createSandbox } from './sandbox.ts'
import { buildSeccompFilter, refusedSyscalls, seccompSupported } from './seccomp-filter.ts'

describe('the seccomp filter', () => {
  it('builds for x86-64 and arm64, and for nothing it has no table of', () => {
    for (const arch of ['x64', 'arm64']) {
      const filter = buildSeccompFilter(arch)
      expect(filter.length % 8).toBe(0)
      // Every jump lands inside the program; it ends with returns.
      const count = filter.length / 8
      for (let index = 0; index < count; index++) {
        const isJump = (filter.readUInt16LE(index * 8) & 0x07) === 0x05
        if (!isJump) continue
        const jumpTrue = filter.readUInt8(index * 8 + 2)
        const jumpFalse = filter.readUInt8(index * 8 + 3)
        expect(index + 1 + Math.max(jumpTrue, jumpFalse)).toBeLessThan(count)
      }
      expect(filter.readUInt16LE(filter.length - 8)).toBe(0x06)
    }
    expect(seccompSupported('riscv64')).toBe(false)
    expect(() => buildSeccompFilter('riscv64')).toThrow(/No seccomp filter/)
  })
})

const hasPython = existsSync('/usr/bin/python3')

/** Each refused call, made from app code in a real box, answers EPERM; ordinary work goes on. */
describe.skipIf(!hasBubblewrap || !hasPython || process.arch !== 'x64')(
  'system calls in a box (needs bubblewrap, python3, x86-64)',
  () => {
    let baseDirectory: string
    let box: ReturnType<typeof createTestBoxExec>

    beforeAll(async () => {
      baseDirectory = await mkdtemp(path.join(os.tmpdir(), 'sprout-seccomp-'))
      const workspace = path.join(baseDirectory, 'workspaces', 'seccomp-box')
      mkdirSync(workspace, { recursive: true })
      const sandbox = createSandbox({
        mode: 'auto',
        stateDirectory: baseDirectory,
        logger: silentLogger,
      })
      box = createTestBoxExec(sandbox, workspace, 'seccomp-box')
    })
    afterAll(async () => {
      await box?.release()
      await rm(baseDirectory, { recursive: true, force: true })
    })

    it('refuses every listed call and namespaces in clone; fork, threads and Node run', async () => {
      // Numbers from libseccomp for x86-64, as in the filter; each is called with zero arguments.
      const script = [
        'import ctypes, os, threading',
        'libc = ctypes.CDLL(None, use_errno=True)',
        'def call(number, *args):',
        '    ctypes.set_errno(0)',
        '    result = libc.syscall(number, *args)',
        '    return result, ctypes.get_errno()',
        'for name, number in [("keyctl",250),("ptrace",101),("unshare",272),("bpf",321),("mount",165),',
        '    ("perf_event_open",298),("userfaultfd",323),("io_uring_setup",425),("setns",308),',
        '    ("init_module",175),("kexec_load",246),("pivot_root",155),("add_key",248),("syslog",103)]:',
        '    print(name, call(number, 0, 0, 0, 0, 0)[1])',
        'print("clone3", call(435, 0, 0)[1])',
        'print("clone-newuser", call(56, 0x10000000 | 17, 0, 0, 0, 0)[1])',
        'print("clone-newnet", call(56, 0x40000000 | 17, 0, 0, 0, 0)[1])',
        'pid = os.fork()',
        'if pid == 0: os._exit(0)',
        'print("fork", os.waitpid(pid, 0)[1])',
        't = threading.Thread(target=lambda: None); t.start(); t.join(); print("thread ok")',
      ].join('\n')
      const result = await box.exec(
        `cat > /tmp/calls.py <<'PY'\n${script}\nPY\npython3 /tmp/calls.py\nnode -e "const { Worker } = require('node:worker_threads'); new Worker('1', { eval: true }).on('exit', () => console.log('node ok'))"`,
        { timeoutSeconds: 30 },
      )
      const lines = new Map(
        result.output
          .trim()
          .split('\n')
          .map((line) => line.split(' ') as [string, string]),
      )
      for (const name of [
        'keyctl',
        'ptrace',
        'unshare',
        'bpf',
        'mount',
        'perf_event_open',
        'userfaultfd',
        'io_uring_setup',
        'setns',
        'init_module',
        'kexec_load',
        'pivot_root',
        'add_key',
        'syslog',
        'clone-newuser',
        'clone-newnet',
      ]) {
        expect(lines.get(name), name).toBe('1')
      }
      expect(lines.get('clone3')).toBe('38')
      expect(lines.get('fork')).toBe('0')
      expect(result.output).toContain('thread ok')
      expect(result.output).toContain('node ok')
      expect(refusedSyscalls).toContain('keyctl')
    })
  },
)

import { execFileSync } from 'node:child_process'
import { linkSync, mkdirSync, writeFileSync } from 'node:fs'
import { copyFile, mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../../logger.ts'
import { createTestBoxExec, hasBubblewrap } from '../../../testing/devbox-support.ts'
import { createSandbox } from './sandbox.ts'

const allowedTops = [
  'bin',
  'dev',
  'etc',
  'home',
  'lib',
  'lib32',
  'lib64',
  'libx32',
  'opt',
  'proc',
  'run',
  'sbin',
  'tmp',
  'usr',
  'var',
]

/** The box's root is built from an allow-list (docs/architecture/devbox.md, "Sandbox"). */
describe.skipIf(!hasBubblewrap)('a box’s root (needs bubblewrap)', () => {
  let baseDirectory: string
  let workspace: string
  let box: ReturnType<typeof createTestBoxExec>

  beforeAll(async () => {
    baseDirectory = await mkdtemp(path.join(os.tmpdir(), 'sprout-box-root-'))
    workspace = path.join(baseDirectory, 'devboxes', 'workspaces', 'root-box')
    mkdirSync(workspace, { recursive: true })
    const sandbox = createSandbox({
      mode: 'auto',
      stateDirectory: path.join(baseDirectory, 'devboxes'),
      logger: silentLogger,
    })
    box = createTestBoxExec(sandbox, workspace, 'root-box')
  })
  afterAll(async () => {
    await box?.release()
    await rm(baseDirectory, { recursive: true, force: true })
  })

  const run = async (command: string) => {
    const result = await box.exec(command, { timeoutSeconds: 20 })
    return result.output
  }

  it('shows only system files, its toolchain, its workspace and private folders', async () => {
    const tops = (await run('ls -A /')).trim().split('\n')
    expect(tops.filter((name) => !allowedTops.includes(name))).toEqual([])
    expect(await run('ls -A /home /home/sprout')).toMatch(/\/home:\nsprout\n/)
    expect(await run('ls /sys 2>&1 || true')).toMatch(/No such file/)
    expect(await run(`ls ${baseDirectory} 2>&1 || true`)).toMatch(/No such file/)
    expect(await run('cat /etc/shadow 2>&1 || true')).toMatch(/No such file/)
    const accounts = (await run('cut -d: -f1 /etc/passwd')).trim().split('\n')
    expect(accounts).toEqual(['root', 'sprout', 'nobody'])
  })

  it('writes /tmp and /var/tmp as the box user, and not the system', async () => {
    const output = await run(
      [
        'echo one > /tmp/a && cat /tmp/a',
        'echo two > /var/tmp/b && cat /var/tmp/b',
        'mktemp >/dev/null && echo mktemp-ok',
        'touch /usr/x 2>/dev/null || echo usr-read-only',
        'touch /etc/x 2>/dev/null || echo etc-read-only',
      ].join('\n'),
    )
    expect(output).toBe('one\ntwo\nmktemp-ok\nusr-read-only\netc-read-only\n')
  })

  it('shows no host path, box id or server folder on its pid 1', async () => {
    const output = await run('tr "\\0" " " < /proc/1/cmdline')
    expect(output).toMatch(/^\S*bwrap --args 3 -- /)
    expect(output).not.toContain(baseDirectory)
    expect(output).not.toContain('root-box')
    expect(output).not.toContain(os.tmpdir() === '/' ? '\0' : `${os.tmpdir()}/sprout`)
  })

  it('refuses new user namespaces and the calls the seccomp filter lists', async () => {
    const output = await run(
      [
        'grep -E "^Seccomp:" /proc/self/status',
        'unshare -Ur id 2>&1 || echo unshare-refused',
        'unshare -n true 2>&1 || echo netns-refused',
      ].join('\n'),
    )
    expect(output).toMatch(/Seccomp:\s+2/)
    expect(output).toContain('unshare-refused')
    expect(output).toContain('netns-refused')
    expect(output).not.toMatch(/^uid=0/m)
  })

  it('runs the server’s own Node first on its PATH, and npm and git work', async () => {
    const output = await run(
      'node --version; command -v node; npm --version >/dev/null && echo npm-ok; git --version >/dev/null && echo git-ok',
    )
    expect(output.split('\n')[0]).toBe(process.version)
    expect(output).toContain('npm-ok')
    expect(output).toContain('git-ok')
    expect(output).not.toContain(path.dirname(process.execPath))
  })
})

/**
 * Sprout installed where the sandbox shows nothing (a clone in a home folder, or under /tmp):
 * boxes still run its Node, not the system's.
 */
describe.skipIf(!hasBubblewrap)('a toolchain in a hidden folder (needs bubblewrap)', () => {
  const places: string[] = []
  afterAll(async () => {
    for (const place of places) await rm(place, { recursive: true, force: true })
  })

  for (const parent of ['/home', os.tmpdir()]) {
    it(`boxes run the server's Node when it lives under ${parent}`, async () => {
      const place = await mkdtemp(path.join(parent, 'sprout-toolchain-'))
      places.push(place)
      const binFolder = path.join(place, 'clone', 'node_modules', 'node', 'bin')
      mkdirSync(binFolder, { recursive: true })
      const executable = path.join(binFolder, 'node')
      try {
        linkSync(process.execPath, executable)
      } catch {
        await copyFile(process.execPath, executable)
      }
      const script = path.join(place, 'probe.ts')
      writeFileSync(
        script,
        [
          `import { mkdtempSync } from 'node:fs'`,
          `import { createSandbox } from ${JSON.stringify(path.join(import.meta.dirname, 'sandbox.ts'))}`,
          `import { createTestBoxExec } from ${JSON.stringify(path.join(import.meta.dirname, '../../../testing/devbox-support.ts'))}`,
          `import { silentLogger } from ${JSON.stringify(path.join(import.meta.dirname, '../../../logger.ts'))}`,
          `const root = mkdtemp(${JSON.stringify(path.join(place, 'data-'))})`,
          'function mkdtemp(prefix) { return mkdtempSync(prefix) }',
          `const sandbox = createSandbox({ mode: 'auto', stateDirectory: root, logger: silentLogger })`,
          'const box = createTestBoxExec(sandbox, root, "toolchain-box")',
          `const result = await box.exec('node --version', { timeoutSeconds: 20 })`,
          'await box.release()',
          'console.log(JSON.stringify({ inside: result.output.trim(), check: sandbox.enforcement.node }))',
        ].join('\n'),
      )
      const printed = execFileSync(executable, [script], { encoding: 'utf8', timeout: 60_000 })
      const answer = JSON.parse(printed.trim().split('\n').at(-1) ?? '{}') as {
        inside: string
        check: string
      }
      expect(answer.inside).toBe(process.version)
      expect(answer.check).toBe(`${process.version} (the server's own)`)
    }, 90_000)
  }
})

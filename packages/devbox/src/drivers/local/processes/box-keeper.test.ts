import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { printedGroupId } from '../../../testing/devbox-support.ts'
import { createBoxCgroup, defaultBoxLimits, detectCgroups } from '../sandbox/box-cgroup.ts'
import {
  isProcessGroupAlive,
  keptByBoxKeeper,
  signalProcessGroup,
  spawnProcessGroup,
} from './process-group.ts'

const startedGroups: number[] = []
afterEach(() => {
  for (const groupId of startedGroups.splice(0)) signalProcessGroup(groupId, 'SIGKILL')
})

async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (check()) return true
    await delay(25)
  }
  return check()
}

/** A command under the keeper that leaves a child in the background and ignores SIGTERM. */
function startKept(script: string, boxCgroups: string[] = []) {
  const child = spawnProcessGroup(keptByBoxKeeper(['sh', '-c', script], boxCgroups), {
    cwd: '/tmp',
    env: { PATH: '/usr/bin:/bin' },
  })
  const groupId = child.pid ?? 0
  startedGroups.push(groupId)
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    output += text
  })
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  )
  return { child, groupId, output: () => output, exited }
}

const stubborn = 'trap "" TERM; sleep 300 & echo started; wait'

describe('box-keeper', () => {
  it("passes the command's exit code and output through, and gives it no stdin", async () => {
    const kept = startKept('read line || echo "no stdin"; exit 7')
    expect(await kept.exited).toBe(7)
    expect(kept.output()).toBe('no stdin\n')
  })

  it('kills its whole group when the server end of its stdin closes', async () => {
    const kept = startKept(stubborn)
    await waitFor(() => kept.output().includes('started'), 10_000)
    expect(isProcessGroupAlive(kept.groupId)).toBe(true)
    // What the kernel does when the server dies, however it dies.
    kept.child.stdin?.destroy()
    expect(await waitFor(() => !isProcessGroupAlive(kept.groupId), 10_000)).toBe(true)
  })

  it('kills its group even when the server was gone before it started', async () => {
    const kept = startKept(stubborn)
    kept.child.stdin?.destroy()
    expect(await waitFor(() => !isProcessGroupAlive(kept.groupId), 10_000)).toBe(true)
  })

  it('answers its own SIGTERM by stopping its whole group, with SIGKILL after a grace', async () => {
    const kept = startKept(stubborn)
    await waitFor(() => kept.output().includes('started'), 10_000)
    // The keeper alone, not its group: what it started in the background must go too.
    kept.child.kill('SIGTERM')
    expect(await waitFor(() => !isProcessGroupAlive(kept.groupId), 10_000)).toBe(true)
  })
})

describe('a process group started for a box', () => {
  it.each([
    // The keeper kills everything in its group.
    ['under the keeper', true],
    // The sandboxed command lines: the signal kills their one process (bubblewrap's), and with
    // it the box's PID namespace.
    ['with its parent-death signal (sandboxed command lines)', false],
  ])(
    'dies with a server killed with SIGKILL: %s',
    async (_name, underKeeper) => {
      const processGroup = path.join(import.meta.dirname, 'process-group.ts')
      const argv = underKeeper
        ? `keptByBoxKeeper(${JSON.stringify(['sh', '-c', 'trap "" TERM; sleep 300 & wait'])})`
        : JSON.stringify(['sleep', '300'])
      const server = spawn(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          [
            `import { keptByBoxKeeper, spawnProcessGroup } from ${JSON.stringify(processGroup)}`,
            `const argv = ${argv}`,
            "const child = spawnProcessGroup(argv, { cwd: '/tmp', env: { PATH: '/usr/bin:/bin' } })",
            "console.log('GROUP', child.pid)",
            'setInterval(() => {}, 1000)',
          ].join('\n'),
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      )
      try {
        const groupId = await printedGroupId(server)
        startedGroups.push(groupId)
        server.kill('SIGKILL')
        expect(await waitFor(() => !isProcessGroupAlive(groupId), 10_000)).toBe(true)
      } finally {
        server.kill('SIGKILL')
      }
    },
    30_000,
  )
})

const cgroups = detectCgroups()
const boxCgroup = cgroups
  ? createBoxCgroup(cgroups, `keeper-test-${process.pid}`, defaultBoxLimits)
  : undefined
afterAll(() => boxCgroup?.remove())

/** Running, not a zombie waiting for the machine's init. */
function isRunning(processId: number): boolean {
  try {
    const stat = readFileSync(`/proc/${processId}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

/**
 * What leaves the process group, each printing its pid: `setsid -f`, `(setsid … &) &`, and a
 * double fork that also starts a session of its own (issue 29).
 */
const escapes = [
  "setsid -f sh -c 'echo ESCAPED $$; exec sleep 300' > /dev/null",
  "(setsid sh -c 'echo ESCAPED $$; exec sleep 300' &) &",
  'sh -c "sh -c \'echo ESCAPED \\$\\$; exec setsid sleep 300\' &" &',
].join('\n')

describe.skipIf(!boxCgroup)('box-keeper with the box cgroups (unsandboxed, as root)', () => {
  const escapedIds = async (kept: ReturnType<typeof startKept>) => {
    await waitFor(() => (kept.output().match(/ESCAPED/g) ?? []).length >= 2, 10_000)
    await waitFor(() => kept.output().includes('started'), 10_000)
    return [...kept.output().matchAll(/ESCAPED (\d+)/g)].map((match) => Number(match[1]))
  }

  it.each([
    ['the command ends', 'sleep 0.5; echo started', undefined],
    ['the keeper is stopped (a box stop)', 'echo started; sleep 300', 'SIGTERM' as const],
    ['the server goes (its pipe closes)', 'echo started; sleep 300', 'pipe' as const],
  ])(
    'kills what left the group when %s',
    async (_name, tail, how) => {
      const kept = startKept(`${escapes}\n${tail}`, boxCgroup?.directories)
      const ids = await escapedIds(kept)
      expect(ids.length).toBeGreaterThanOrEqual(2)
      if (how === 'SIGTERM') kept.child.kill('SIGTERM')
      if (how === 'pipe') kept.child.stdin?.destroy()
      await kept.exited
      expect(await waitFor(() => ids.every((id) => !isRunning(id)), 10_000)).toBe(true)
    },
    30_000,
  )
})

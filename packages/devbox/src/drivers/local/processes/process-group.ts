import { type ChildProcess, type ChildProcessByStdio, spawn, spawnSync } from 'node:child_process'
import { closeSync, existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { Readable, Writable } from 'node:stream'
import { setTimeout as delay } from 'node:timers/promises'

/** Sends a signal to a whole process group (a child started with `detached: true`). */
export function signalProcessGroup(groupId: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-groupId, signal)
    return true
  } catch {
    return false
  }
}

/**
 * Whether any process of the group is still running. Zombies do not count: orphans are reaped
 * by the machine's init, which may take a while, but they no longer run anything.
 */
export function isProcessGroupAlive(groupId: number): boolean {
  if (!signalProcessGroup(groupId, 0)) return false
  let processIds: string[]
  try {
    processIds = readdirSync('/proc').filter((name) => /^\d+$/.test(name))
  } catch {
    return true
  }
  return processIds.some((processId) => {
    try {
      const stat = readFileSync(`/proc/${processId}/stat`, 'utf8')
      // Fields after the command name, which is in parentheses and may contain spaces.
      const [state, , processGroup] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      return Number(processGroup) === groupId && state !== 'Z'
    } catch {
      return false
    }
  })
}

/** SIGTERM, then SIGKILL after `graceMs` if anything in the group is still running. */
export async function killProcessGroup(groupId: number, graceMs: number): Promise<void> {
  if (!signalProcessGroup(groupId, 'SIGTERM')) return
  if (await waitUntilGone(groupId, graceMs)) return
  signalProcessGroup(groupId, 'SIGKILL')
  await waitUntilGone(groupId, killedWaitMs)
}

const killedWaitMs = 1000

async function waitUntilGone(groupId: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    await delay(25)
    if (!isProcessGroupAlive(groupId)) return true
  }
  return false
}

/** Runs unsandboxed commands and the dependency install so that they die with the server. */
export const boxKeeperScript = path.join(import.meta.dirname, 'box-keeper.mjs')

/**
 * `argv` run under box-keeper.mjs (what an unsandboxed box's command line already is); given the
 * box's cgroups, the command runs in a cgroup of its own under them, ended with it (decision 030).
 */
export function keptByBoxKeeper(argv: string[], boxCgroups: string[] = []): string[] {
  return [
    process.execPath,
    boxKeeperScript,
    ...boxCgroups.flatMap((directory) => ['--cgroup', directory]),
    ...argv,
  ]
}

let setprivPath: string | false | undefined

/**
 * A process as the sandbox describes it (box-sandbox.ts): argv, a shell prelude run before exec
 * (joining the cgroups), and files inherited as descriptors 3, 4, … (bubblewrap's options,
 * seccomp), opened at the last moment and closed here once held.
 */
export type ProcessCommand = {
  argv: string[]
  prelude?: string
  openInheritedFiles?: () => number[]
}

/**
 * `argv` with the parent-death signal set first (`setpriv --pdeathsig KILL`) and kept up to
 * bubblewrap, whose `--die-with-parent` starts only once it runs: a server killed in between would
 * otherwise leave the box running. If the server is already gone when the signal is set, the shell
 * ends there. The same shell runs the prelude (one shell per command).
 */
function diesWithServer(argv: string[], prelude: string): string[] {
  if (setprivPath === undefined) {
    const found = ['/usr/bin/setpriv', '/bin/setpriv'].find((candidate) => existsSync(candidate))
    // util-linux 2.33 and later.
    setprivPath =
      found !== undefined &&
      spawnSync(found, ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore', timeout: 5000 })
        .status === 0
        ? found
        : false
  }
  if (!setprivPath) return prelude ? ['/bin/sh', '-c', `${prelude}exec "$@"`, 'sh', ...argv] : argv
  return [
    setprivPath,
    '--pdeathsig',
    'KILL',
    '--',
    '/bin/sh',
    '-c',
    `[ "$PPID" = "$0" ] && ${prelude}exec "$@"`,
    String(process.pid),
    ...argv,
  ]
}

/**
 * Starts a box process in its own process group, output piped; nothing of it may outlive the server
 * (docs/architecture/devbox.md "Sandbox"). Under box-keeper.mjs stdin is a pipe the server never
 * writes nor closes, so the keeper sees EOF however the server dies and kills the group. Sandboxed
 * ones die with the server from their first instruction (`diesWithServer`) until bubblewrap's
 * `--die-with-parent` takes over. Others get no stdin.
 */
export function spawnProcessGroup(
  command: ProcessCommand | string[],
  options: { cwd: string; env: Record<string, string> },
): ChildProcessByStdio<Writable | null, Readable, Readable> {
  const {
    argv,
    prelude = '',
    openInheritedFiles,
  } = Array.isArray(command) ? { argv: command } : command
  const [program, ...args] = argv
  if (!program) throw new Error('spawnProcessGroup needs a command to run')
  const kept = args[0] === boxKeeperScript
  const [start = program, ...startArgs] = kept ? argv : diesWithServer(argv, prelude)
  const inherited = openInheritedFiles?.() ?? []
  let child: ChildProcess
  try {
    child = spawn(start, startArgs, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: [kept ? 'pipe' : 'ignore', 'pipe', 'pipe', ...inherited],
    })
  } finally {
    // The child holds its own copies once spawn returns (or there is no child).
    for (const descriptor of inherited) closeSync(descriptor)
  }
  // The keeper's end of the pipe closes when it exits; nothing is written, so nothing can fail.
  child.stdin?.on('error', () => {})
  // stdout and stderr are pipes whichever stdin is.
  return child as ChildProcessByStdio<Writable | null, Readable, Readable>
}

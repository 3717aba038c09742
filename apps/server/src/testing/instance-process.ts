/** TEST HELPERS: a whole server in a child process, as one instance of several, killed or stopped. */
import { type ChildProcess, spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

const childScript = `
import { parseConfig } from ${JSON.stringify(path.join(import.meta.dirname, '../config/config.ts'))}
import { startServer } from ${JSON.stringify(path.join(import.meta.dirname, '../start-server.ts'))}
const server = await startServer(parseConfig(process.env), { serveWeb: false })
process.once('SIGTERM', () => server.stop().then(() => process.exit(0)))
console.log('listening')
`

/** Every process below `pid`, read from /proc before it dies (its children are reparented then). */
export function descendantsOf(pid: number): number[] {
  const children = new Map<number, number[]>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)])
    } catch {
      // Gone meanwhile.
    }
  }
  const found: number[] = []
  const visit = (parent: number) => {
    for (const child of children.get(parent) ?? []) {
      found.push(child)
      visit(child)
    }
  }
  visit(pid)
  return found
}

/** The command lines of the processes below `pid` (arguments joined by spaces). */
export function descendantCommands(pid: number): string[] {
  return descendantsOf(pid).flatMap((child) => {
    try {
      return [readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0').join(' ').trim()]
    } catch {
      return []
    }
  })
}

export type InstanceProcess = {
  child: ChildProcess
  /** SIGKILL to the server and every process below it (its dev servers and commands), as when its machine dies. */
  kill: () => void
  /** SIGTERM: the server drains and stops (start-server's stop), then exits. */
  stop: () => Promise<void>
}

/** Starts a server (startServer, no web bundle) in a child process with `environment`. */
export async function startInstanceProcess(
  environment: Record<string, string>,
): Promise<InstanceProcess> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', childScript], {
    env: { ...process.env, ...environment },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (data: Buffer) => {
      if (data.toString().includes('listening')) resolve()
    })
    child.once('exit', (code) => reject(new Error(`the instance exited with ${code}`)))
  })
  const running = () => child.pid !== undefined && child.exitCode === null && !child.signalCode
  return {
    child,
    kill: () => {
      if (!running() || child.pid === undefined) return
      for (const pid of [child.pid, ...descendantsOf(child.pid)]) {
        try {
          process.kill(pid, 'SIGKILL')
        } catch {
          // Already gone.
        }
      }
    },
    stop: async () => {
      if (!running()) return
      child.kill('SIGTERM')
      await exited
    },
  }
}

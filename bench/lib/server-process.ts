import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'

export type ServerProcess = { child: ChildProcess; port: number; stop: () => Promise<void> }

/** Starts `node {entry}` with Node 24 and waits until GET {healthPath} answers 200. */
export async function startServerProcess(options: {
  entry: string
  environment: Record<string, string>
  port: number
  healthPath?: string
  timeoutMs?: number
  /** Node flags before the entry (those of `npm start`: `npmStartNodeFlags()`). */
  nodeFlags?: string[]
}): Promise<ServerProcess & { readyMs: number }> {
  const started = performance.now()
  const child = spawn(
    process.execPath,
    [
      ...(options.nodeFlags ?? []),
      ...(process.env.BENCH_NODE_FLAGS?.split(' ') ?? []),
      options.entry,
    ],
    {
      env: { ...process.env, ...options.environment },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  )
  const deadline = Date.now() + (options.timeoutMs ?? 60_000)
  const url = `http://127.0.0.1:${options.port}${options.healthPath ?? '/healthz'}`
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${options.entry} exited with ${child.exitCode}`)
    try {
      const response = await fetch(url)
      if (response.ok) break
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  const readyMs = performance.now() - started
  return {
    child,
    port: options.port,
    readyMs,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

/** Sprout's server (apps/server/src/main.ts) on 127.0.0.1:{port}, PUBLIC_URL http://localhost:{port}. */
export function startSproutProcess(port: number, environment: Record<string, string>) {
  return startServerProcess({
    entry: 'apps/server/src/main.ts',
    environment: {
      ...environment,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://localhost:${port}`,
    },
    port,
  })
}

/** The Node flags `npm start` runs scripts/start.ts with (package.json's `start` script). */
export function npmStartNodeFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as {
    scripts: Record<string, string>
  }
  const words = (scripts.start ?? '').split(/\s+/)
  return words.slice(words.indexOf('node') + 1, words.indexOf('scripts/start.ts'))
}

/** Resident memory of a process in MiB, from /proc. */
export function residentMemoryMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const match = /VmRSS:\s+(\d+) kB/.exec(status)
  return match ? Number(match[1]) / 1024 : Number.NaN
}

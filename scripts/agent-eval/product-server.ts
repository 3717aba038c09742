import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, readdir } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { findFreePort } from '@sprout/devbox/drivers/local/processes/free-port.ts'
import { removeWithMounts } from '@sprout/devbox/drivers/local/sandbox/box-disk.ts'

/** The real product for an evaluation: `node apps/server/src/main.ts` on a fresh DATA_DIR. */
export type ProductServer = {
  /** http://localhost:{port}, the server's PUBLIC_URL and the origin its API expects. */
  origin: string
  port: number
  /** The last lines the server printed, for a failure's report. */
  output: () => string
  stop: () => Promise<void>
}

const dataDirPrefix = 'sprout-agent-eval-'
const startTimeoutMs = 120_000
const stopTimeoutMs = 15_000
const keptOutputChars = 8000

/**
 * Starts the server as a child process with the caller's environment (the provider keys pass
 * through) plus its own data, port and admin, and waits for /healthz. `stop` ends it and removes
 * the data folder (its boxes' disk images unmounted first).
 */
export async function startProductServer(options: {
  adminEmail: string
  poolTarget: number
  /** BROWSER_TOOL for the server: off measures the agent without its browser. */
  browserTool: boolean
}): Promise<ProductServer> {
  await removeAbandonedDataDirs()
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `${dataDirPrefix}${process.pid}-`))
  const port = await findFreePort()
  const origin = `http://localhost:${port}`
  const environment: Record<string, string | undefined> = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_URL: origin,
    DATABASE_URL: '',
    ADMIN_EMAILS: options.adminEmail,
    AUTH_RATE_LIMIT: '1000/60',
    DEVBOX_POOL_TARGET: process.env.DEVBOX_POOL_TARGET ?? String(options.poolTarget),
    // The starter's dependencies are installed once per machine, as for the tests.
    DEVBOX_CACHE_DIR:
      process.env.DEVBOX_CACHE_DIR ?? path.join(os.tmpdir(), 'sprout-devbox-test-cache'),
    DEMO_TEST_GATES_DIR: '',
    BROWSER_TOOL: options.browserTool ? 'on' : 'off',
  }
  let output = ''
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-keptOutputChars)
  }
  const child = spawn(process.execPath, [path.resolve('apps/server/src/main.ts')], {
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: a Ctrl-C in the terminal reaches the evaluation only, which
    // interrupts its runs and writes its table before it stops the server.
    detached: true,
  })
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  // Exiting without `stop` (a second Ctrl-C): the server does not outlive the evaluation.
  const killOnExit = () => child.kill('SIGKILL')
  process.on('exit', killOnExit)
  child.once('exit', () => process.off('exit', killOnExit))
  let stopped: Promise<void> | undefined
  const stop = () => {
    stopped ??= (async () => {
      await endProcess(child)
      await removeWithMounts(dataDir)
    })()
    return stopped
  }
  try {
    await waitForHealth(child, origin, () => output)
  } catch (error) {
    await stop()
    throw error
  }
  return { origin, port, output: () => output, stop }
}

async function waitForHealth(child: ChildProcess, origin: string, output: () => string) {
  const deadline = Date.now() + startTimeoutMs
  const url = `http://127.0.0.1:${new URL(origin).port}/healthz`
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`The server exited with ${child.exitCode} while starting:\n${output()}`)
    }
    const healthy = await fetch(url)
      .then((response) => response.ok)
      .catch(() => false)
    if (healthy) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(
    `The server did not answer ${url} within ${startTimeoutMs / 1000} s:\n${output()}`,
  )
}

/** SIGTERM (the server stops its boxes), SIGKILL if it has not exited in time. */
async function endProcess(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = once(child, 'exit')
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs)
  await exited
  clearTimeout(timer)
}

/**
 * The data folders of evaluations that were killed (`sprout-agent-eval-{pid}-…` whose process is
 * gone) still hold their boxes' mounted disk images: unmounted and removed.
 */
async function removeAbandonedDataDirs() {
  for (const entry of await readdir(os.tmpdir())) {
    if (!entry.startsWith(dataDirPrefix)) continue
    const pid = Number(entry.slice(dataDirPrefix.length).split('-')[0])
    if (Number.isInteger(pid) && pid > 0 && !processAlive(pid)) {
      await removeWithMounts(path.join(os.tmpdir(), entry)).catch(() => undefined)
    }
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

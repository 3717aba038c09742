import { type ChildProcess, spawn } from 'node:child_process'
import path from 'node:path'
import { expect } from '@playwright/test'
import { serverEnvironment } from './server-environment.ts'

/** For a server whose tests make no app: no pool box warms up beside the other tests' work. */
export const withoutBoxes = { DEVBOX_POOL_TARGET: '0' }

/**
 * A Sprout server of a test's own, on its own port and data folder, which the test may stop and
 * start again (a restart keeps DATA_DIR). The shared web server of playwright.config.ts cannot
 * be restarted mid-run; this one runs the same `npm start` with the same settings.
 */
export function ownServer(port: number, environment: Record<string, string> = {}) {
  const dataDir = path.resolve(`.tmp/e2e-own-${port}-${Date.now()}-${process.pid}`)
  const baseURL = `http://localhost:${port}`
  let child: ChildProcess | undefined
  let output = ''

  const start = async () => {
    output = ''
    // A server of an earlier try may still be stopping on this port (a retry starts in a new
    // worker): its health answer would pass for this one's, which then dies on EADDRINUSE.
    await expect
      .poll(
        () =>
          fetch(`${baseURL}/healthz`).then(
            () => 'answering',
            () => 'free',
          ),
        {
          timeout: 60_000,
          intervals: [250],
        },
      )
      .toBe('free')
    child = spawn('npm', ['start'], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        ...serverEnvironment(port, dataDir),
        // The shared web server built the web app already.
        SPROUT_SKIP_BUILD: '1',
        ...environment,
      },
    })
    for (const stream of [child.stdout, child.stderr]) {
      stream?.setEncoding('utf8').on('data', (text: string) => {
        output = (output + text).slice(-8000)
      })
    }
    const started = child
    // A server that dies mid-test says why in the report, not only as refused connections.
    started.once('exit', (code, signal) => {
      if (child === started) {
        console.error(`Sprout on port ${port} exited (${code ?? signal}) mid-test:\n${output}`)
      }
    })
    await expect
      .poll(
        async () => {
          if (child?.exitCode !== null) throw new Error(`Sprout exited while starting:\n${output}`)
          return fetch(`${baseURL}/healthz`).then(
            (response) => response.ok,
            () => false,
          )
        },
        { timeout: 90_000, intervals: [250] },
      )
      .toBe(true)
  }

  /** Waits for a line of the server's output matching `pattern`, and returns the match. */
  const waitForOutput = async (pattern: RegExp) => {
    await expect.poll(() => pattern.test(output), { timeout: 30_000 }).toBe(true)
    return pattern.exec(output) as RegExpExecArray
  }

  const stop = async () => {
    const running = child
    child = undefined
    if (!running?.pid || running.exitCode !== null) return
    const exited = new Promise((resolve) => running.once('exit', resolve))
    const group = running.pid
    process.kill(-group, 'SIGTERM')
    await exited
    // npm exits at once; the server itself stops its boxes first. A restart waits for all of it.
    await expect
      .poll(
        () => {
          try {
            process.kill(-group, 0)
            return false
          } catch {
            return true
          }
        },
        { timeout: 30_000, intervals: [100] },
      )
      .toBe(true)
  }

  return { baseURL, dataDir, start, stop, waitForOutput, output: () => output }
}

import { setTimeout as delay } from 'node:timers/promises'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import { DevServerAnswerError, requestDevServer } from '../dev-server-request.ts'
import type { DevServerTarget } from '../devbox-driver.ts'
import { AppServerStartError, defaultHealthTimeoutMs, healthPath } from './app-server-instance.ts'

const failureTailCharacters = 4000

/** What the health wait needs of a started server, local process or pod. */
export type StartedAppServer = {
  logs: () => string
  running: () => boolean
  exited: Promise<{ code: number | null; signal: string | null }>
  stop: () => Promise<void>
}

/** A health answer is a status and a few words: a longer one fails the start at once. */
const healthAnswerMaxBytes = 64 * 1024

/** Resolves once the server answers its health route with 2xx; stops it and throws otherwise. */
export async function waitForHealth(
  server: StartedAppServer,
  target: DevServerTarget | undefined,
  timeoutMs?: number,
): Promise<void> {
  const healthTimeoutMs = timeoutMs ?? defaultHealthTimeoutMs
  const deadline = Date.now() + healthTimeoutMs
  for (;;) {
    if (!server.running()) {
      const { code, signal } = await server.exited
      await server.stop()
      const logs = server.logs()
      throw new AppServerStartError(
        `it exited (${signal ? `signal ${signal}` : `exit code ${code}`}) before answering GET ${healthPath}:\n${cutText(logs, failureTailCharacters, 'end')}`,
        logs,
      )
    }
    // Each ask ends within 2 s and 64 KiB (docs/security.md "Answers of an app's server").
    let refused: string | undefined
    const status = await requestDevServer(target, healthPath, {
      timeoutMs: Math.max(100, Math.min(2000, deadline - Date.now())),
      maxBytes: healthAnswerMaxBytes,
    }).then(
      (answer) => answer.status,
      (error: unknown) => {
        if (error instanceof DevServerAnswerError && error.reason === 'too-large') {
          refused = error.message
        }
        return 0
      },
    )
    if (status >= 200 && status < 300) return
    if (refused) {
      await server.stop()
      const logs = server.logs()
      throw new AppServerStartError(
        `its answer to GET ${healthPath}: ${refused}:\n${cutText(logs, failureTailCharacters, 'end')}`,
        logs,
      )
    }
    if (Date.now() > deadline) {
      await server.stop()
      const logs = server.logs()
      throw new AppServerStartError(
        `it did not answer GET ${healthPath} with 2xx within ${Math.round(healthTimeoutMs / 1000)} s${status ? ` (last answer: ${status}; the server must answer it with 200)` : ''}:\n${cutText(logs, failureTailCharacters, 'end')}`,
        logs,
      )
    }
    await delay(25)
  }
}

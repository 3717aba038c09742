import { setTimeout as delay } from 'node:timers/promises'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import {
  type AppServerInstance,
  AppServerStartError,
  defaultHealthTimeoutMs,
  healthPath,
} from '../../../app-servers/app-server-instance.ts'
import { serverEntry } from '../../../app-servers/full-stack-deploy.ts'
import { DevServerAnswerError, requestDevServer } from '../../../dev-server-request.ts'
import type { DevServerTarget } from '../../../devbox-driver.ts'
import { guarded } from '../../../guarded.ts'
import type { DevboxLogger } from '../../../logger.ts'
import { boxEnvironment } from '../sandbox/box-environment.ts'
import type { BoxSandbox } from '../sandbox/box-sandbox.ts'
import { findFreePort } from './free-port.ts'
import { killProcessGroup, signalProcessGroup, spawnProcessGroup } from './process-group.ts'

const stopGraceMs = 2000
const keptLogCharacters = 64 * 1024
const failureTailCharacters = 4000

type AppServerInput = {
  instanceId: string
  appId: string
  deployId: string
  deployPath: string
  sandbox: BoxSandbox
  logger: DevboxLogger
  healthTimeoutMs?: number
  onOutput?: (text: string) => void
  env?: Record<string, string>
}

/** A started server process: its output so far, its exit, and a stop that frees its sandbox. */
type AppServerProcess = {
  logs: () => string
  running: () => boolean
  pid: () => number | undefined
  exited: Promise<{ code: number | null; signal: string | null }>
  stop: () => Promise<void>
}

/**
 * Runs a deploy's `node server/index.js` in the instance's sandbox (or on a free loopback port
 * unsandboxed) until `GET /api/health` answers 2xx. A failed start kills what it started, frees the
 * sandbox and throws AppServerStartError with the output's tail.
 */
export async function startAppServerProcess(input: AppServerInput): Promise<AppServerInstance> {
  const { sandbox } = input
  const startedAt = Date.now()
  try {
    await sandbox.prepare()
  } catch (error) {
    await sandbox.release()
    throw error
  }
  const prepareMs = Date.now() - startedAt
  const port = sandbox.fixedDevPort ?? (await findFreePort())
  const server = spawnAppServer(input, port)
  const target = sandbox.devServerTarget(port)
  await waitForHealth(input, server, target)
  input.logger.info('Production server started', {
    appId: input.appId,
    deployId: input.deployId,
    instanceId: input.instanceId,
    durationMs: Date.now() - startedAt,
    sandboxMs: prepareMs,
  })
  return {
    id: input.instanceId,
    appId: input.appId,
    deployId: input.deployId,
    target: () => target,
    logs: server.logs,
    running: server.running,
    exited: server.exited,
    processGroupId: () => (server.running() ? server.pid() : undefined),
    stop: server.stop,
  }
}

function spawnAppServer(input: AppServerInput, port: number): AppServerProcess {
  const { sandbox } = input
  let logs = ''
  const appendLog = (text: string) => {
    logs = cutText(logs + text, keptLogCharacters, 'end')
    input.onOutput?.(text)
  }
  const environment = boxEnvironment(sandbox.workspaceInside, {
    ...input.env,
    ...sandbox.environment,
    NODE_ENV: 'production',
    PORT: String(port),
  })
  const command = sandbox.commandFor({
    cwd: input.deployPath,
    script: `exec node ${serverEntry}`,
    path: environment.PATH ?? '',
  })
  const child = spawnProcessGroup(command, { cwd: input.deployPath, env: environment })
  // The app's output and its process's events reach here: a fault stays with this instance.
  const where = `The production server ${input.instanceId}`
  const keep = guarded(input.logger, `${where}: its output`, appendLog)
  child.stdout?.setEncoding('utf8').on('data', keep)
  child.stderr?.setEncoding('utf8').on('data', keep)
  let running = true
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    child.once(
      'error',
      guarded(input.logger, `${where}: its error`, (error: Error) => {
        running = false
        resolve({ code: null, signal: null })
        appendLog(`\n${error.message}\n`)
      }),
    )
    child.once(
      'exit',
      guarded(input.logger, `${where}: its exit`, (code: number | null, signal: string | null) => {
        running = false
        resolve({ code, signal })
        // Whatever the server left behind in its group goes with it.
        if (child.pid !== undefined) signalProcessGroup(child.pid, 'SIGKILL')
      }),
    )
  })
  // The sandbox (namespace, cgroups, sockets) is freed once the process is gone, however it ended.
  const released = exited
    .then(() => sandbox.release())
    .catch((error: Error) => {
      input.logger.warn('Could not free a production server sandbox', {
        instanceId: input.instanceId,
        error: error.message,
      })
    })
  let stopping: Promise<void> | undefined
  const stop = () => {
    stopping ??= (async () => {
      if (running && child.pid !== undefined) await killProcessGroup(child.pid, stopGraceMs)
      await released
    })()
    return stopping
  }
  return { logs: () => logs, running: () => running, pid: () => child.pid, exited, stop }
}

/** A health answer is a status and a few words: a longer one fails the start at once. */
const healthAnswerMaxBytes = 64 * 1024

/** Resolves once the server answers its health route with 2xx; stops it and throws otherwise. */
async function waitForHealth(
  input: AppServerInput,
  server: AppServerProcess,
  target: DevServerTarget,
): Promise<void> {
  const healthTimeoutMs = input.healthTimeoutMs ?? defaultHealthTimeoutMs
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

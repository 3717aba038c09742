import { setTimeout as delay } from 'node:timers/promises'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import {
  type AppServerInstance,
  AppServerStartError,
  defaultHealthTimeoutMs,
  healthPath,
} from '../../app-servers/app-server-instance.ts'
import { serverEntry } from '../../app-servers/full-stack-deploy.ts'
import { requestDevServer } from '../../dev-server-request.ts'
import { guarded } from '../../guarded.ts'
import type { DevboxLogger } from '../../logger.ts'
import { boxEnvironment } from './box-environment.ts'
import type { BoxSandbox } from './box-sandbox.ts'
import { findFreePort } from './free-port.ts'
import { killProcessGroup, signalProcessGroup, spawnProcessGroup } from './process-group.ts'

const stopGraceMs = 2000
const keptLogCharacters = 64 * 1024
const failureTailCharacters = 4000

/**
 * Runs `node server/index.js` of a deploy in the instance's sandbox (its own network namespace,
 * uid and cgroups, or a free loopback port unsandboxed) and waits for `GET /api/health` to answer
 * 2xx. A start that fails kills what it started, frees the sandbox and throws AppServerStartError
 * with the tail of the output.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: one closure holds the instance's process, logs and stop its methods share
export async function startAppServerProcess(input: {
  instanceId: string
  appId: string
  deployId: string
  deployPath: string
  sandbox: BoxSandbox
  logger: DevboxLogger
  healthTimeoutMs?: number
  onOutput?: (text: string) => void
  env?: Record<string, string>
}): Promise<AppServerInstance> {
  const { sandbox } = input
  const startedAt = Date.now()
  let logs = ''
  const appendLog = (text: string) => {
    logs = cutText(logs + text, keptLogCharacters, 'end')
    input.onOutput?.(text)
  }
  try {
    await sandbox.prepare()
  } catch (error) {
    await sandbox.release()
    throw error
  }
  const prepareMs = Date.now() - startedAt
  const port = sandbox.fixedDevPort ?? (await findFreePort())
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

  const target = sandbox.devServerTarget(port)
  const healthTimeoutMs = input.healthTimeoutMs ?? defaultHealthTimeoutMs
  const deadline = Date.now() + healthTimeoutMs
  for (;;) {
    if (!running) {
      const { code, signal } = await exited
      await stop()
      throw new AppServerStartError(
        `it exited (${signal ? `signal ${signal}` : `exit code ${code}`}) before answering GET ${healthPath}:\n${cutText(logs, failureTailCharacters, 'end')}`,
        logs,
      )
    }
    const status = await requestDevServer(target, healthPath, { timeoutMs: 2000 }).then(
      (answer) => answer.status,
      () => 0,
    )
    if (status >= 200 && status < 300) break
    if (Date.now() > deadline) {
      await stop()
      throw new AppServerStartError(
        `it did not answer GET ${healthPath} with 2xx within ${Math.round(healthTimeoutMs / 1000)} s${status ? ` (last answer: ${status}; the server must answer it with 200)` : ''}:\n${cutText(logs, failureTailCharacters, 'end')}`,
        logs,
      )
    }
    await delay(25)
  }
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
    logs: () => logs,
    running: () => running,
    exited,
    processGroupId: () => (running ? child.pid : undefined),
    stop,
  }
}

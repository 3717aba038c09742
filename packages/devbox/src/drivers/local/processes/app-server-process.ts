import { cutText } from '@sprout/protocol/text/cut-text.ts'
import type { AppServerInstance } from '../../../app-servers/app-server-instance.ts'
import { serverEntry } from '../../../app-servers/full-stack-deploy.ts'
import { waitForHealth } from '../../../app-servers/wait-for-health.ts'
import { guarded } from '../../../guarded.ts'
import type { DevboxLogger } from '../../../logger.ts'
import { boxEnvironment } from '../sandbox/box-environment.ts'
import type { BoxSandbox } from '../sandbox/box-sandbox.ts'
import { findFreePort } from './free-port.ts'
import { killProcessGroup, signalProcessGroup, spawnProcessGroup } from './process-group.ts'

const stopGraceMs = 2000
const keptLogCharacters = 64 * 1024

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
  await waitForHealth(server, target, input.healthTimeoutMs)
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

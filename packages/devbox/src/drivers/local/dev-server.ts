// Long file: one closure owns a dev server's process, its restarts with backoff, its log and its environment file.
import type { ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { constants } from 'node:fs'
import { chown, open, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import { createSecretRedactor, type SecretRedactor } from '@sprout/protocol/text/redact-secrets.ts'
import { devServerAnswers } from '../../dev-server-request.ts'
import type { Devbox, DevServerStatus } from '../../devbox-driver.ts'
import { guarded } from '../../guarded.ts'
import type { DevboxLogger } from '../../logger.ts'
import { boxEnvironment } from './box-environment.ts'
import type { BoxSandbox } from './box-sandbox.ts'
import { findFreePort, isPortFree } from './free-port.ts'
import { killProcessGroup, signalProcessGroup, spawnProcessGroup } from './process-group.ts'

const startTimeoutMs = 60_000
const maxStartAttempts = 3
const stopGraceMs = 2000
const restartBaseDelayMs = 500
const restartMaxDelayMs = 10_000
/** A server that ran this long before dying is restarted quickly again. */
const stableRunMs = 30_000
const keptLogCharacters = 64 * 1024
/**
 * Sprout's own variables, which a running dev server of the fullstack template takes from
 * `SPROUT_ENV_FILE` before its next /api request (templates/fullstack/vite.config.ts): setting
 * only these never restarts it. Vault values still do.
 */
const liveVariables = ['SENTRY_DSN', 'SPROUT_APP_TOKEN', 'SPROUT_INTERNAL_URL']
/** What a workspace's vite.config.ts says when its dev server reads SPROUT_ENV_FILE. */
const liveEnvironmentMarker = 'SPROUT_ENV_FILE'

export type DevServer = Devbox['devServer'] & {
  logs: () => string
  /** Process group id of the running server. */
  processGroupId: () => number | undefined
}

/**
 * Runs `npm run dev` in the workspace (in the sandbox) on a free port. An unexpected exit is
 * answered with a restart after a growing delay; each one is counted in `restarts()`.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: one closure holds the dev server's process, restarts and logs its methods share
export function createDevServer(input: {
  boxId: string
  workspacePath: string
  sandbox: BoxSandbox
  logger: DevboxLogger
  env?: Record<string, string>
}): DevServer {
  let status: DevServerStatus = 'stopped'
  let wanted: 'running' | 'stopped' = 'stopped'
  let port: number | undefined
  let child: ChildProcess | undefined
  let starting: Promise<void> | undefined
  let restartTimer: NodeJS.Timeout | undefined
  let restarts = 0
  let consecutiveCrashes = 0
  let runningSince = 0
  let logs = ''
  /** The app's secrets (docs/product/vault.md "Where values go"); Sprout's own variables win. */
  let extraEnv: Record<string, string> = {}
  /** What the server prints is kept with those values redacted (logs, errors, server_logs). */
  let redactor: SecretRedactor = createSecretRedactor({})
  let applying: Promise<void> = Promise.resolve()

  // A function, not a comparison, because `stop()` may change `wanted` while launch awaits.
  const stopRequested = () => wanted === 'stopped'
  const appendLog = (text: string) => {
    logs = cutText(logs + text, keptLogCharacters, 'end')
  }

  const launch = async (attempt = 1): Promise<void> => {
    status = 'starting'
    await input.sandbox.prepare()
    const fixedPort = input.sandbox.fixedDevPort
    port =
      fixedPort ?? (port !== undefined && (await isPortFree(port)) ? port : await findFreePort())
    if (stopRequested()) {
      status = 'stopped'
      return
    }
    const environmentFile = input.sandbox.environmentFile
    const environment = boxEnvironment(input.sandbox.workspaceInside, {
      ...input.env,
      ...extraEnv,
      ...input.sandbox.environment,
      ...(environmentFile ? { SPROUT_ENV_FILE: environmentFile.inside } : {}),
      PORT: String(port),
    })
    const command = input.sandbox.commandFor({
      cwd: input.workspacePath,
      script: 'exec npm run dev',
      path: environment.PATH ?? '',
    })
    const serverProcess = spawnProcessGroup(command, { cwd: input.workspacePath, env: environment })
    child = serverProcess
    // Values taken without a restart change the redactor of a running server's output too.
    let outputRedactor = redactor
    let output = redactor.stream()
    // The app's output and its process's events reach here: a fault stays with this box.
    const where = `The dev server of box ${input.boxId}`
    const keep = guarded(input.logger, `${where}: its output`, (text: string) => {
      if (outputRedactor !== redactor) {
        appendLog(output.flush())
        outputRedactor = redactor
        output = redactor.stream()
      }
      appendLog(output.push(text))
    })
    serverProcess.stdout?.setEncoding('utf8').on('data', keep)
    serverProcess.stderr?.setEncoding('utf8').on('data', keep)
    serverProcess.once(
      'close',
      guarded(input.logger, `${where}: its close`, () => appendLog(output.flush())),
    )
    serverProcess.on(
      'error',
      guarded(input.logger, `${where}: its error`, (error: Error) => {
        if (child === serverProcess) child = undefined
        appendLog(`\n${error.message}\n`)
      }),
    )
    serverProcess.on(
      'exit',
      guarded(
        input.logger,
        `${where}: its exit`,
        (code: number | null, signal: NodeJS.Signals | null) => onExit(serverProcess, code, signal),
      ),
    )

    const target = input.sandbox.devServerTarget(port)
    const deadline = Date.now() + startTimeoutMs
    while (child === serverProcess && !stopRequested()) {
      if (await devServerAnswers(target)) {
        status = 'running'
        runningSince = Date.now()
        return
      }
      if (Date.now() > deadline) {
        if (serverProcess.pid !== undefined) await killProcessGroup(serverProcess.pid, stopGraceMs)
        break
      }
      await delay(100)
    }
    if (stopRequested()) return
    // Another process took the port between choosing it and the server binding it.
    if (fixedPort === undefined && attempt < maxStartAttempts && !(await isPortFree(port))) {
      port = undefined
      return launch(attempt + 1)
    }
    throw new Error(
      `The dev server of box ${input.boxId} did not start:\n${cutText(logs, 2000, 'end')}`,
    )
  }

  const onExit = (exited: ChildProcess, code: number | null, signal: NodeJS.Signals | null) => {
    if (child !== exited) return
    child = undefined
    // Whatever the server left behind in its group goes with it.
    if (exited.pid !== undefined) signalProcessGroup(exited.pid, 'SIGKILL')
    if (wanted === 'stopped') {
      status = 'stopped'
      return
    }
    const wasRunning = status === 'running'
    status = 'crashed'
    if (wasRunning) {
      input.logger.warn('Dev server exited unexpectedly; restarting it', {
        boxId: input.boxId,
        code,
        signal,
      })
      scheduleRestart()
    }
  }

  const scheduleRestart = () => {
    if (wanted !== 'running' || restartTimer) return
    if (runningSince && Date.now() - runningSince > stableRunMs) consecutiveCrashes = 0
    const waitMs = Math.min(restartBaseDelayMs * 2 ** consecutiveCrashes, restartMaxDelayMs)
    consecutiveCrashes += 1
    restartTimer = setTimeout(() => {
      restartTimer = undefined
      if (wanted !== 'running') return
      restarts += 1
      starting = launch()
      starting.catch((error: Error) => {
        status = 'crashed'
        input.logger.warn('Dev server restart failed', { boxId: input.boxId, error: error.message })
        scheduleRestart()
      })
    }, waitMs)
    restartTimer.unref()
  }

  const start = async () => {
    wanted = 'running'
    if (status === 'running') return
    if (status === 'starting' && starting) return starting
    if (restartTimer) {
      clearTimeout(restartTimer)
      restartTimer = undefined
    }
    starting = launch()
    try {
      await starting
    } catch (error) {
      status = 'crashed'
      scheduleRestart()
      throw error
    }
  }

  const stop = async () => {
    wanted = 'stopped'
    if (restartTimer) clearTimeout(restartTimer)
    restartTimer = undefined
    const running = child
    if (running?.pid !== undefined && running.exitCode === null && running.signalCode === null) {
      const exited = new Promise((resolve) => running.once('exit', resolve))
      await killProcessGroup(running.pid, stopGraceMs)
      await exited
    }
    child = undefined
    status = 'stopped'
  }

  return {
    start,
    stop,
    // Changes apply one after another, so two quick vault changes never interleave a restart.
    setEnvironment: (env) => {
      applying = applying
        .catch(() => undefined)
        .then(async () => {
          if (sameEnvironment(env, extraEnv)) return
          const previous = extraEnv
          extraEnv = { ...env }
          redactor = createSecretRedactor(extraEnv)
          const file = input.sandbox.environmentFile
          const written =
            file !== undefined &&
            (await writeLiveEnvironment(file.host, extraEnv, input.sandbox.owner).then(
              () => true,
              (error: Error) => {
                input.logger.warn('The dev server environment file could not be written', {
                  boxId: input.boxId,
                  error: error.message,
                })
                return false
              },
            ))
          if (wanted !== 'running') return
          // Only Sprout's own variables changed (a box claimed from the pool gets its app's
          // token and DSN): the running server reads them from the file, no restart.
          if (
            written &&
            onlyLiveVariablesDiffer(previous, extraEnv) &&
            (await readsLiveEnvironment(input.workspacePath))
          ) {
            return
          }
          // A process's environment is fixed at its start: the server starts again, on the same
          // port, and the preview's page reconnects and reloads by itself.
          await stop()
          await start()
        })
      return applying
    },
    status: () => status,
    target: () =>
      status === 'running' && port !== undefined ? input.sandbox.devServerTarget(port) : undefined,
    restarts: () => restarts,
    logs: () => logs,
    processGroupId: () => child?.pid,
  }
}

function sameEnvironment(first: Record<string, string>, second: Record<string, string>): boolean {
  const keys = Object.keys(first)
  return (
    keys.length === Object.keys(second).length && keys.every((key) => first[key] === second[key])
  )
}

function onlyLiveVariablesDiffer(
  first: Record<string, string>,
  second: Record<string, string>,
): boolean {
  for (const key of new Set([...Object.keys(first), ...Object.keys(second)])) {
    if (first[key] !== second[key] && !liveVariables.includes(key)) return false
  }
  return true
}

/**
 * Writes the live variables for the box's processes to read: a new file (never through a link
 * the box left at the name, the folder being the box's), then renamed over the old one.
 */
async function writeLiveEnvironment(
  file: string,
  env: Record<string, string>,
  owner: { uid: number; gid: number } | undefined,
) {
  // null: the variable is unset (the server deletes it from its environment).
  const values = Object.fromEntries(liveVariables.map((key) => [key, env[key] ?? null]))
  const temporary = path.join(path.dirname(file), `.sprout-env-${randomUUID()}`)
  try {
    await writeFile(temporary, JSON.stringify(values), { flag: 'wx', mode: 0o600 })
    if (owner) await chown(temporary, owner.uid, owner.gid)
    await rename(temporary, file)
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined)
    throw error
  }
}

/** Whether the workspace's dev server reads SPROUT_ENV_FILE (the template's vite.config.ts does). */
async function readsLiveEnvironment(workspacePath: string): Promise<boolean> {
  // The workspace is the box's: no link followed, no FIFO waited on, no huge file read.
  const handle = await open(
    path.join(workspacePath, 'vite.config.ts'),
    constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
  ).catch(() => undefined)
  if (!handle) return false
  try {
    const stats = await handle.stat()
    if (!stats.isFile() || stats.size > 256 * 1024) return false
    return (await handle.readFile('utf8')).includes(liveEnvironmentMarker)
  } finally {
    await handle.close()
  }
}

import path from 'node:path'
import { currentDeployId } from '../deploy.ts'
import type { AppServerInstance } from './app-server-instance.ts'
import {
  type AppEntry,
  type AppServerManagerState,
  appendAppLog,
  isAppIdle,
} from './app-server-manager-state.ts'
import { isFullStackDeploy } from './full-stack-deploy.ts'
import { launchAppServer } from './launch-app-server.ts'

// Starting, adopting and restarting call one another (a crash restarts through a start), so
// they live in one file (docs/architecture/devbox.md "Production servers").

/** The running instance, starting one from the current deploy; undefined: no server to run. */
export function ensureAppServerStarted(
  state: AppServerManagerState,
  entry: AppEntry,
): Promise<AppServerInstance | undefined> {
  if (entry.current) return Promise.resolve(entry.current)
  if (entry.starting) return entry.starting
  const { deploysDir } = state.options
  const generation = entry.generation
  const starting = (async () => {
    const deployId = await currentDeployId(deploysDir, entry.appId)
    if (!deployId) return undefined
    if (!(await isFullStackDeploy(path.join(deploysDir, entry.appId, deployId)))) {
      return undefined
    }
    const instance = await launchAppServer(state, entry, deployId)
    if (entry.generation !== generation || state.closed) {
      // A deploy switched or the app was stopped meanwhile: this one is out of date.
      await instance.stop()
      return entry.current
    }
    adoptAppServer(state, entry, instance)
    return instance
  })()
  entry.starting = starting
  void starting
    .finally(() => {
      if (entry.starting === starting) entry.starting = undefined
    })
    .catch(() => undefined)
  return starting
}

/** Makes `instance` the app's server, restarted with a growing delay when it crashes. */
export function adoptAppServer(
  state: AppServerManagerState,
  entry: AppEntry,
  instance: AppServerInstance,
) {
  entry.current = instance
  entry.backoff.started()
  void instance.exited.then(({ code, signal }) => {
    if (entry.current !== instance || state.closed) return
    entry.current = undefined
    const waitMs = entry.backoff.nextDelay()
    appendAppLog(
      entry,
      `\n[sprout] The server exited (${signal ?? `code ${code}`}); restarting in ${waitMs} ms\n`,
    )
    state.logger.warn('Production server exited unexpectedly; restarting it', {
      appId: entry.appId,
      code,
      signal,
      waitMs,
    })
    scheduleRestart(state, entry, waitMs)
  })
}

function scheduleRestart(state: AppServerManagerState, entry: AppEntry, waitMs: number) {
  const generation = entry.generation
  entry.restartDue = new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      entry.restartDue = undefined
      entry.cancelRestart = undefined
      resolve()
      if (entry.generation !== generation || state.closed) return
      entry.restarts += 1
      ensureAppServerStarted(state, entry).catch(() => {
        // Keeps trying while the app is used; an idle app waits for its next request.
        if (!isAppIdle(state, entry) && !entry.restartDue && !entry.current) {
          scheduleRestart(state, entry, entry.backoff.nextDelay())
        }
      })
    }, waitMs)
    timer.unref()
    entry.cancelRestart = () => {
      clearTimeout(timer)
      entry.restartDue = undefined
      entry.cancelRestart = undefined
      resolve()
    }
  })
}

// Long file: one closure holds every app's instance, leases, restart timer and idle sweep, which its methods share.
import path from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import { createSecretRedactor } from '@sprout/protocol/text/redact-secrets.ts'
import { currentDeployId } from '../deploy.ts'
import type { DevServerTarget } from '../devbox-driver.ts'
import { type DevboxLogger, silentLogger } from '../logger.ts'
import {
  type AppServerInstance,
  AppServerStartError,
  type StartAppServer,
} from './app-server-instance.ts'
import { isFullStackDeploy } from './full-stack-deploy.ts'
import { createRestartBackoff } from './restart-backoff.ts'

const keptLogCharacters = 64 * 1024
const defaultDrainTimeoutMs = 30_000

/** A request's hold on the instance that answers it; the instance is not stopped before release. */
export type AppServerLease = { target: DevServerTarget; instanceId: string; release: () => void }

export type AppServerState = 'stopped' | 'starting' | 'running' | 'restarting'

type AppEntry = {
  appId: string
  current?: AppServerInstance
  starting?: Promise<AppServerInstance | undefined>
  /** Set while a crashed server waits for its restart; requests wait for it too. */
  restartDue?: Promise<void>
  cancelRestart?: () => void
  /** Bumped by switches and stops: a start begun before it is stale when it ends. */
  generation: number
  lastUsedAt: number
  restarts: number
  backoff: ReturnType<typeof createRestartBackoff>
  logs: string
}

export type AppServerManager = ReturnType<typeof createAppServerManager>

/**
 * The production servers of deployed apps (docs/architecture/devbox.md, "Production servers"):
 * started from the `current` deploy on the first request (after a restart, or after being
 * stopped when idle), replaced by a new deploy's server without failing a request (the old one
 * is drained), restarted with a growing delay when they crash.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: one closure holds the apps' servers, leases and timers its methods share
export function createAppServerManager(options: {
  deploysDir: string
  startAppServer: StartAppServer
  /** APPS_IDLE_MINUTES in ms: a server without a request for that long is stopped; 0: never. */
  idleMs: number
  /** How often idleness is checked; defaults to a quarter of idleMs, at most 30 s. */
  idleCheckMs?: number
  healthTimeoutMs?: number
  /** How long a replaced server may finish its requests before it is stopped anyway. */
  drainTimeoutMs?: number
  logger?: DevboxLogger
  now?: () => number
  /** The app's extra environment (its vault secrets), read at every start. */
  environmentFor?: (appId: string) => Promise<Record<string, string>>
}) {
  const logger = options.logger ?? silentLogger
  const now = options.now ?? Date.now
  const entries = new Map<string, AppEntry>()
  const inFlight = new Map<AppServerInstance, number>()
  let closed = false

  const entryOf = (appId: string): AppEntry => {
    let entry = entries.get(appId)
    if (!entry) {
      entry = {
        appId,
        generation: 0,
        lastUsedAt: now(),
        restarts: 0,
        backoff: createRestartBackoff(now),
        logs: '',
      }
      entries.set(appId, entry)
    }
    return entry
  }

  const appendLog = (entry: AppEntry, text: string) => {
    entry.logs = cutText(entry.logs + text, keptLogCharacters, 'end')
  }

  /**
   * The server gets the app's secrets; what it prints is kept and reported with their values
   * redacted (docs/product/vault.md "Redaction"), so no log or error of Sprout carries one.
   */
  const launch = async (entry: AppEntry, deployId: string) => {
    const env = (await options.environmentFor?.(entry.appId)) ?? {}
    const redactor = createSecretRedactor(env)
    const output = redactor.stream()
    try {
      return await options.startAppServer({
        appId: entry.appId,
        deployId,
        deployPath: path.join(options.deploysDir, entry.appId, deployId),
        dataPath: path.join(options.deploysDir, entry.appId, 'data'),
        healthTimeoutMs: options.healthTimeoutMs,
        onOutput: (text) => appendLog(entry, output.push(text)),
        env,
      })
    } catch (error) {
      appendLog(entry, output.flush())
      if (!(error instanceof AppServerStartError) || redactor.empty) throw error
      throw new AppServerStartError(redactor.redact(error.message), redactor.redact(error.output))
    }
  }

  const adopt = (entry: AppEntry, instance: AppServerInstance) => {
    entry.current = instance
    entry.backoff.started()
    void instance.exited.then(({ code, signal }) => {
      if (entry.current !== instance || closed) return
      entry.current = undefined
      const waitMs = entry.backoff.nextDelay()
      appendLog(
        entry,
        `\n[sprout] The server exited (${signal ?? `code ${code}`}); restarting in ${waitMs} ms\n`,
      )
      logger.warn('Production server exited unexpectedly; restarting it', {
        appId: entry.appId,
        code,
        signal,
        waitMs,
      })
      scheduleRestart(entry, waitMs)
    })
  }

  const scheduleRestart = (entry: AppEntry, waitMs: number) => {
    const generation = entry.generation
    entry.restartDue = new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        entry.restartDue = undefined
        entry.cancelRestart = undefined
        resolve()
        if (entry.generation !== generation || closed) return
        entry.restarts += 1
        ensureStarted(entry).catch(() => {
          // Keeps trying while the app is used; an idle app waits for its next request.
          if (!isIdle(entry) && !entry.restartDue && !entry.current) {
            scheduleRestart(entry, entry.backoff.nextDelay())
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

  /** The running instance, starting one from the current deploy; undefined: no server to run. */
  const ensureStarted = (entry: AppEntry): Promise<AppServerInstance | undefined> => {
    if (entry.current) return Promise.resolve(entry.current)
    if (entry.starting) return entry.starting
    const generation = entry.generation
    const starting = (async () => {
      const deployId = await currentDeployId(options.deploysDir, entry.appId)
      if (!deployId) return undefined
      if (!(await isFullStackDeploy(path.join(options.deploysDir, entry.appId, deployId)))) {
        return undefined
      }
      const instance = await launch(entry, deployId)
      if (entry.generation !== generation || closed) {
        // A deploy switched or the app was stopped meanwhile: this one is out of date.
        await instance.stop()
        return entry.current
      }
      adopt(entry, instance)
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

  const isIdle = (entry: AppEntry) =>
    options.idleMs > 0 && now() - entry.lastUsedAt >= options.idleMs

  const drainAndStop = async (instance: AppServerInstance) => {
    const deadline = now() + (options.drainTimeoutMs ?? defaultDrainTimeoutMs)
    while ((inFlight.get(instance) ?? 0) > 0 && now() < deadline && instance.running()) {
      await delay(20)
    }
    inFlight.delete(instance)
    await instance.stop()
  }

  const stopIdle = async () => {
    for (const entry of entries.values()) {
      if (!isIdle(entry)) continue
      entry.cancelRestart?.()
      const instance = entry.current
      if (!instance || (inFlight.get(instance) ?? 0) > 0) continue
      entry.current = undefined
      entry.generation += 1
      logger.info('Stopped an idle production server', { appId: entry.appId })
      appendLog(
        entry,
        '\n[sprout] Stopped after no request for a while; the next request starts it\n',
      )
      await instance.stop()
    }
  }
  const idleCheckMs = options.idleCheckMs ?? Math.min(30_000, Math.max(50, options.idleMs / 4))
  const idleTimer =
    options.idleMs > 0
      ? setInterval(() => void stopIdle().catch(() => undefined), idleCheckMs)
      : undefined
  idleTimer?.unref()

  const stopApp = async (entry: AppEntry) => {
    entry.generation += 1
    entry.cancelRestart?.()
    const instance = entry.current
    entry.current = undefined
    await Promise.all([
      instance?.stop(),
      entry.starting?.then((started) => started?.stop()).catch(() => undefined),
    ])
  }

  return {
    /**
     * The app's running server for one request, started (and waited for) when needed;
     * undefined when its current deploy has no server. Throws AppServerStartError when the
     * server does not come up. Call `release` when the answer is done.
     */
    acquire: async (appId: string): Promise<AppServerLease | undefined> => {
      if (closed) throw new Error('Production servers are shutting down')
      const entry = entryOf(appId)
      entry.lastUsedAt = now()
      if (entry.restartDue) await entry.restartDue
      const instance = entry.current ?? (await ensureStarted(entry))
      if (!instance) return undefined
      inFlight.set(instance, (inFlight.get(instance) ?? 0) + 1)
      let released = false
      return {
        target: instance.target(),
        instanceId: instance.id,
        release: () => {
          if (released) return
          released = true
          entry.lastUsedAt = now()
          const count = (inFlight.get(instance) ?? 1) - 1
          if (count > 0) inFlight.set(instance, count)
          else inFlight.delete(instance)
        },
      }
    },

    /** Starts a new deploy's server beside the running one; the deploy switches to it after. */
    startCandidate: (appId: string, deployId: string) => launch(entryOf(appId), deployId),

    /**
     * New requests go to `instance` from now on; the old instance finishes the requests it has
     * and is stopped. `undefined` (a deploy without a server) just stops the old one.
     */
    switchTo: async (appId: string, instance: AppServerInstance | undefined) => {
      const entry = entryOf(appId)
      entry.generation += 1
      entry.cancelRestart?.()
      const previous = entry.current
      entry.current = undefined
      entry.lastUsedAt = now()
      if (instance) adopt(entry, instance)
      if (previous) await drainAndStop(previous)
    },

    /**
     * The app's environment changed (a vault secret): a running server is replaced by one
     * started with the new values, without failing a request (as a deploy switches); a stopped
     * one gets them when it next starts.
     */
    reload: async (appId: string) => {
      const entry = entries.get(appId)
      const running = entry?.current
      if (!entry || !running || closed) return
      const generation = entry.generation
      const instance = await launch(entry, running.deployId)
      // A deploy or a stop came meanwhile: that one decides which server runs.
      if (entry.generation !== generation || entry.current !== running) {
        await instance.stop()
        return
      }
      entry.generation += 1
      entry.current = undefined
      adopt(entry, instance)
      await drainAndStop(running)
    },

    /** Stops the app's server (the application is deleted); the next request would start it. */
    stop: async (appId: string) => {
      const entry = entries.get(appId)
      if (!entry) return
      entries.delete(appId)
      await stopApp(entry)
    },

    status: (appId: string): { state: AppServerState; instanceId?: string; restarts: number } => {
      const entry = entries.get(appId)
      if (!entry) return { state: 'stopped', restarts: 0 }
      const state: AppServerState = entry.current
        ? 'running'
        : entry.restartDue
          ? 'restarting'
          : entry.starting
            ? 'starting'
            : 'stopped'
      return { state, instanceId: entry.current?.id, restarts: entry.restarts }
    },

    /** The app's server output across its starts and restarts, the last 64 KB. */
    logs: (appId: string) => entries.get(appId)?.logs ?? '',

    /** Stops idle servers now (what the timer does every idleCheckMs). */
    stopIdle,

    /** Sprout is shutting down: every server is stopped; they start again on first request. */
    close: async () => {
      closed = true
      clearInterval(idleTimer)
      await Promise.all([...entries.values()].map((entry) => stopApp(entry)))
      entries.clear()
    },
  }
}

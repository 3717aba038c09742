// Long file: one closure owns the process's boxes, from attach and re-opening to idling and waking.
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { setTimeout as delay } from 'node:timers/promises'
import type { Database } from '@sprout/db/database.ts'
import { devboxes } from '@sprout/db/schema/devboxes.ts'
import type { AppServerManager } from '@sprout/devbox/app-servers/app-server-manager.ts'
import { instanceIdPrefix } from '@sprout/devbox/app-servers/instance-id.ts'
import { requestDevServer } from '@sprout/devbox/dev-server-request.ts'
import type {
  Devbox,
  DevboxDriver,
  DevServerStatus,
  DevServerTarget,
  PackType,
} from '@sprout/devbox/devbox-driver.ts'
import { guarded } from '@sprout/devbox/guarded.ts'
import type { DevboxLogger } from '@sprout/devbox/logger.ts'
import type { DevboxPool } from '@sprout/devbox/pool.ts'
import type { DevboxConfinement } from '@sprout/protocol/api/applications.ts'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import { createSecretRedactor } from '@sprout/protocol/text/redact-secrets.ts'
import { toStorableText } from '@sprout/protocol/text/well-formed.ts'
import { eq } from 'drizzle-orm'
import { createUsageTracker } from './usage-tracker.ts'

export type DevboxState = 'provisioning' | 'ready' | 'failed' | 'missing'

/** Dev servers opened at once after a restart: more would only slow each other down. */
const maxConcurrentOpens = 2
/** How long a run waits for its box after a restart (a dev server's start timeout is 60 s). */
const readyTimeoutMs = 90_000
/** Idle dev servers are looked for this often at most (a quarter of the idle time, 50 ms..30 s). */
const maxSweepMs = 30_000

/** Runs at most `slots` of the given tasks at once, the rest in the order they came. */
function createLimiter(slots: number) {
  let running = 0
  const waiting: (() => void)[] = []
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= slots) await new Promise<void>((resolve) => waiting.push(resolve))
    running += 1
    try {
      return await task()
    } finally {
      running -= 1
      waiting.shift()?.()
    }
  }
}

export type DevboxRuntime = ReturnType<typeof createDevboxRuntime>

/** Answers a request to `http://sprout.internal` from one of the application's boxes. */
export type InternalRequestHandler = (
  applicationId: string | undefined,
  request: IncomingMessage,
  response: ServerResponse,
) => void | Promise<void>

/**
 * The dev boxes of applications on this server: handed out from the pool (or provisioned cold),
 * recorded in `devboxes`, and re-opened after a restart.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: one closure holds the process's boxes and opening queue that its methods share
export function createDevboxRuntime(options: {
  db: Database
  driver: DevboxDriver
  pool: DevboxPool
  logger: DevboxLogger
  /** The limits and enforcement of the driver's boxes, shown in the admin's pool tab. */
  confinement?: DevboxConfinement
  /** The production servers of deployed apps (docs/architecture/devbox.md "Production servers"). */
  appServers?: AppServerManager
  /**
   * DEVBOX_IDLE_MINUTES in ms: an application's dev server unused that long is stopped and
   * started again on its next use; 0 or unset: never (docs/architecture/devbox.md "Idle dev servers").
   */
  idleMs?: number
  now?: () => number
}) {
  const { db, driver, pool, logger } = options
  const idleMs = options.idleMs ?? 0
  const usage = createUsageTracker({ idleMs, now: options.now })
  /** Applications whose dev server was stopped for idleness, until it has started again. */
  const suspended = new Set<string>()
  const suspending = new Map<string, Promise<void>>()
  const waking = new Map<string, Promise<void>>()
  let sweepTimer: NodeJS.Timeout | undefined
  const boxes = new Map<string, Devbox>()
  const states = new Map<string, DevboxState>()
  const pending = new Set<Promise<unknown>>()
  /** Boxes recorded before a restart and not opened yet: opened on first use (ensureOpen). */
  const unopened = new Map<string, { id: string; packType: PackType }>()
  const opening = new Map<string, Promise<Devbox | undefined>>()
  const openSlots = createLimiter(maxConcurrentOpens)
  let poolStarted: Promise<void> = Promise.resolve()
  /** The vault's values for an application's processes; set by the app (useSecrets). */
  let secretSource: (applicationId: string) => Promise<Record<string, string>> = async () => ({})
  const secretsFor = async (applicationId: string) => {
    try {
      return await secretSource(applicationId)
    } catch (error) {
      logger.error('The vault could not be read for an app', {
        applicationId,
        error: (error as Error).message,
      })
      return {}
    }
  }
  /** Gives a box's dev server the application's secrets (docs/product/vault.md). */
  let internalHandler: InternalRequestHandler | undefined
  /** The application a dev box or a production instance (`prod-{hash of the app id}-…`) serves. */
  const applicationOfBox = (boxId: string): string | undefined => {
    for (const [applicationId, box] of boxes) if (box.id === boxId) return applicationId
    for (const [applicationId, row] of unopened) if (row.id === boxId) return applicationId
    // Every deployed application has a dev box (its deploys are built there).
    for (const applicationId of [...boxes.keys(), ...unopened.keys()]) {
      if (boxId.startsWith(instanceIdPrefix(applicationId))) return applicationId
    }
    return undefined
  }
  const applySecrets = async (applicationId: string, box: Devbox) => {
    // The same values (none, for a new app) leave the dev server running as it is.
    await box.devServer.setEnvironment?.(await secretsFor(applicationId))
  }

  const track = <T>(work: Promise<T>) => {
    pending.add(work)
    void work.finally(() => pending.delete(work)).catch(() => undefined)
    return work
  }

  const markReady = async (applicationId: string, box: Devbox) => {
    usage.touch(applicationId)
    await applySecrets(applicationId, box)
    boxes.set(applicationId, box)
    states.set(applicationId, 'ready')
    await db
      .update(devboxes)
      .set({ status: 'ready', error: null })
      .where(eq(devboxes.applicationId, applicationId))
  }

  const markFailed = async (applicationId: string, error: unknown) => {
    // A dev server's output may print a vault value: it is redacted (docs/product/vault.md).
    const message = createSecretRedactor(await secretsFor(applicationId)).redact(
      error instanceof Error ? error.message : String(error),
    )
    logger.error('dev box failed', { applicationId, error: message })
    states.set(applicationId, 'failed')
    await db
      .update(devboxes)
      .set({ status: 'failed', error: toStorableText(cutText(message, 2000)) })
      .where(eq(devboxes.applicationId, applicationId))
  }

  const provisionCold = (applicationId: string, packType: PackType, id: string) =>
    track(
      (async () => {
        try {
          const box = await driver.provision(packType, { id })
          // The application was deleted while its box was being built.
          if (!states.has(applicationId)) return await driver.destroy(id)
          await markReady(applicationId, box)
        } catch (error) {
          await markFailed(applicationId, error)
        }
      })(),
    )

  /**
   * Opens a box recorded before the restart: after the pool's own boxes (so new applications
   * still open at once), at most `maxConcurrentOpens` at a time.
   */
  const ensureOpen = (applicationId: string): Promise<Devbox | undefined> => {
    const open = boxes.get(applicationId)
    if (open) return Promise.resolve(open)
    const already = opening.get(applicationId)
    if (already) return already
    const row = unopened.get(applicationId)
    if (!row) return Promise.resolve(undefined)
    const work = track(
      (async () => {
        await poolStarted.catch(() => undefined)
        return openSlots(async () => {
          if (!unopened.has(applicationId)) return boxes.get(applicationId)
          try {
            const env = await secretsFor(applicationId)
            const box = await driver.open(row.id, row.packType, { env })
            unopened.delete(applicationId)
            // The application was deleted while its box was being opened.
            if (!states.has(applicationId)) return undefined
            // Its row already says ready: only this process's maps change.
            usage.touch(applicationId)
            await applySecrets(applicationId, box)
            boxes.set(applicationId, box)
            states.set(applicationId, 'ready')
            return box
          } catch (error) {
            unopened.delete(applicationId)
            await markFailed(applicationId, error)
            return undefined
          }
        })
      })().finally(() => opening.delete(applicationId)),
    )
    opening.set(applicationId, work)
    return work
  }

  /** Stops the dev servers nobody used for the idle time; the pool's boxes are not in `boxes`. */
  const suspendIdle = () => {
    for (const applicationId of usage.idle(boxes.keys())) {
      const box = boxes.get(applicationId)
      if (!box || suspended.has(applicationId) || waking.has(applicationId)) continue
      suspended.add(applicationId)
      logger.info('Stopping an idle dev server', { applicationId, boxId: box.id })
      const work = track(box.suspend ? box.suspend() : box.devServer.stop())
        .catch((error: Error) =>
          logger.warn('Stopping an idle dev server failed', {
            applicationId,
            error: error.message,
          }),
        )
        .finally(() => suspending.delete(applicationId))
      suspending.set(applicationId, work)
    }
  }

  /** A use: touches the application and starts its dev server again when it was idled. */
  const wake = (applicationId: string): Promise<void> => {
    usage.touch(applicationId)
    if (!suspended.has(applicationId)) return Promise.resolve()
    const already = waking.get(applicationId)
    if (already) return already
    const work = track(
      (async () => {
        await suspending.get(applicationId)
        const startedAt = Date.now()
        try {
          await boxes.get(applicationId)?.devServer.start()
          logger.info('Started an idle dev server again', {
            applicationId,
            durationMs: Date.now() - startedAt,
          })
        } catch (error) {
          // The dev server keeps restarting by itself; its logs say why it failed.
          logger.warn('An idle dev server did not start again', {
            applicationId,
            error: (error as Error).message,
          })
        } finally {
          suspended.delete(applicationId)
          usage.touch(applicationId)
        }
      })().finally(() => waking.delete(applicationId)),
    )
    waking.set(applicationId, work)
    return work
  }

  return {
    pool,
    confinement: options.confinement,
    appServers: options.appServers,

    /** Where the vault's values for an application's processes come from. */
    useSecrets: (source: (applicationId: string) => Promise<Record<string, string>>) => {
      secretSource = source
    },
    /** The application's secrets, as its production servers get them at start. */
    secretsFor,
    /** Who answers the boxes' requests to `http://sprout.internal` (the error ingest). */
    useInternalRequests: (handler: InternalRequestHandler) => {
      internalHandler = handler
    },
    /** A box's request to `http://sprout.internal` (the driver's egress proxy calls this). */
    internalRequest: (boxId: string, request: IncomingMessage, response: ServerResponse) => {
      let answered: unknown
      try {
        answered = internalHandler?.(applicationOfBox(boxId), request, response)
      } catch (error) {
        // A box's request must not throw into the egress proxy's connection handler.
        answered = Promise.reject(error)
      }
      if (!internalHandler) {
        response.writeHead(404, { 'content-type': 'text/plain' })
        response.end('Nothing is served at sprout.internal\n')
      }
      void Promise.resolve(answered).catch((error: Error) => {
        logger.error('A request to sprout.internal failed', { boxId, error: error.message })
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' })
        response.end()
      })
    },
    /**
     * A secret of the application was set or deleted: its dev server restarts with the new
     * values and its production server is replaced by one that has them, without downtime.
     */
    secretsChanged: async (applicationId: string) => {
      const box = boxes.get(applicationId)
      await Promise.all([
        box ? applySecrets(applicationId, box) : undefined,
        options.appServers?.reload(applicationId),
      ])
    },

    /** Gives the application a box: a ready one from the pool at once, else one provisioned now. */
    attach: async (applicationId: string, packType: PackType = 'fullstack') => {
      const claimed = await pool.claim(packType)
      const id = claimed?.id ?? randomUUID()
      await db.insert(devboxes).values({
        id,
        applicationId,
        packType,
        status: claimed ? 'ready' : 'provisioning',
      })
      if (claimed) {
        boxes.set(applicationId, claimed)
        states.set(applicationId, 'ready')
        // Its dev server started without the app's environment (SENTRY_DSN, SPROUT_APP_TOKEN):
        // it restarts with it, on the same port, while the app opens.
        void track(applySecrets(applicationId, claimed)).catch((error: Error) => {
          logger.warn('A pool box did not take its app environment', {
            applicationId,
            error: error.message,
          })
        })
        return
      }
      states.set(applicationId, 'provisioning')
      void provisionCold(applicationId, packType, id)
    },

    /** A use of the application's preview (an HMR message): postpones its idle stop. */
    touch: (applicationId: string) => usage.touch(applicationId),

    /**
     * Keeps the application's dev server from idling (a running agent run, an open builder)
     * until the returned function is called.
     */
    hold: (applicationId: string) => usage.hold(applicationId),

    /** Where the dev server answers while it runs, without counting as a use. */
    devServerTarget: (applicationId: string) => boxes.get(applicationId)?.devServer.target(),

    /** The dev server's status without counting as a use (tests, the admin). */
    devServerStatus: (applicationId: string): DevServerStatus | undefined =>
      boxes.get(applicationId)?.devServer.status(),

    /**
     * Where the preview proxy reaches the application's dev server: a use that opens the box or
     * starts an idle dev server, waiting up to `timeoutMs` for it to answer; undefined if not.
     */
    previewTarget: async (
      applicationId: string,
      timeoutMs: number,
    ): Promise<DevServerTarget | undefined> => {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        if (unopened.has(applicationId)) void ensureOpen(applicationId)
        void wake(applicationId)
        const state = states.get(applicationId)
        if (state === undefined || state === 'failed') return undefined
        const devServer = boxes.get(applicationId)?.devServer
        const target = devServer?.target()
        if (target || Date.now() >= deadline) return target
        // A dev server that app code broke restarts by itself; waiting would only delay the page.
        if (devServer?.status() === 'crashed' && !waking.has(applicationId)) return undefined
        await delay(25)
      }
    },

    /** The box's state; asking is a use, so a box not opened since the restart starts opening. */
    state: (applicationId: string): DevboxState => {
      if (unopened.has(applicationId)) void ensureOpen(applicationId)
      return states.get(applicationId) ?? 'missing'
    },

    /** Whether the application's box is open, without opening it. */
    isOpen: (applicationId: string) => boxes.has(applicationId),

    /** The application's box when it is open; first use after a restart starts opening it. */
    box: (applicationId: string) => {
      const box = boxes.get(applicationId)
      if (!box && unopened.has(applicationId)) void ensureOpen(applicationId)
      if (box) void wake(applicationId)
      return box
    },

    /**
     * The application's box, waiting for it to be opened (after a restart) or provisioned, up
     * to `timeoutMs`; undefined when it failed, is missing or took longer.
     */
    whenReady: async (applicationId: string, timeoutMs = readyTimeoutMs) => {
      const deadline = Date.now() + timeoutMs
      if (unopened.has(applicationId)) await ensureOpen(applicationId)
      while (states.get(applicationId) === 'provisioning' && Date.now() < deadline) {
        await delay(100)
      }
      if (boxes.has(applicationId)) await wake(applicationId)
      return boxes.get(applicationId)
    },

    /** Ready when the box exists and its dev server answers HTTP. */
    isEditorReady: async (applicationId: string) => {
      if (unopened.has(applicationId)) void ensureOpen(applicationId)
      if (boxes.has(applicationId)) void wake(applicationId)
      const target = boxes.get(applicationId)?.devServer.target()
      if (!target) return false
      try {
        return (await requestDevServer(target)).status < 500
      } catch {
        return false
      }
    },

    destroy: async (applicationId: string) => {
      const rows = await db.select().from(devboxes).where(eq(devboxes.applicationId, applicationId))
      boxes.delete(applicationId)
      states.delete(applicationId)
      unopened.delete(applicationId)
      usage.forget(applicationId)
      suspended.delete(applicationId)
      await opening.get(applicationId)
      await suspending.get(applicationId)
      await waking.get(applicationId)
      for (const row of rows) await driver.destroy(row.id)
    },

    /**
     * After a restart: the pool reopens its own boxes in the background, and each application's
     * box is opened on first use (a preview, a run, the editor-ready poll), so start-up does not
     * wait for dev servers however many workspaces there are.
     */
    start: async () => {
      if (idleMs > 0) {
        sweepTimer = setInterval(
          guarded(logger, 'Stopping idle dev servers', suspendIdle),
          Math.min(maxSweepMs, Math.max(50, idleMs / 4)),
        )
        sweepTimer.unref()
      }
      poolStarted = track(pool.start())
      const rows = await db.select().from(devboxes)
      for (const row of rows) {
        if (row.status === 'failed') {
          states.set(row.applicationId, 'failed')
          continue
        }
        states.set(row.applicationId, 'provisioning')
        if (row.status === 'ready') {
          unopened.set(row.applicationId, { id: row.id, packType: row.packType as PackType })
          continue
        }
        // Provisioning was cut off by the restart: nothing was built in it yet, start over.
        void track(
          (async () => {
            await driver.destroy(row.id).catch(() => undefined)
            await provisionCold(row.applicationId, row.packType as PackType, row.id)
          })(),
        )
      }
    },

    stop: async () => {
      clearInterval(sweepTimer)
      await Promise.allSettled([...pending])
      await pool.close()
      // Production servers start again on their first request after a restart.
      await options.appServers?.close()
      await driver.shutdown()
    },
  }
}

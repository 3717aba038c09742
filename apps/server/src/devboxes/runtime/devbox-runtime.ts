import { randomUUID } from 'node:crypto'
import { setTimeout as delay } from 'node:timers/promises'
import type { Database } from '@sprout/db/database.ts'
import { devboxes } from '@sprout/db/schema/devboxes.ts'
import type { AppServerManager } from '@sprout/devbox/app-servers/app-server-manager.ts'
import { requestDevServer } from '@sprout/devbox/dev-server-request.ts'
import type { Devbox, DevboxDriver, PackType } from '@sprout/devbox/devbox-driver.ts'
import type { DevboxLogger } from '@sprout/devbox/logger.ts'
import type { DevboxPool } from '@sprout/devbox/pool.ts'
import type { DevboxConfinement } from '@sprout/protocol/api/applications.ts'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import { toStorableText } from '@sprout/protocol/text/well-formed.ts'
import { eq } from 'drizzle-orm'

export type DevboxState = 'provisioning' | 'ready' | 'failed' | 'missing'

/** Dev servers opened at once after a restart: more would only slow each other down. */
const maxConcurrentOpens = 2
/** How long a run waits for its box after a restart (a dev server's start timeout is 60 s). */
const readyTimeoutMs = 90_000

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
}) {
  const { db, driver, pool, logger } = options
  const boxes = new Map<string, Devbox>()
  const states = new Map<string, DevboxState>()
  const pending = new Set<Promise<unknown>>()
  /** Boxes recorded before a restart and not opened yet: opened on first use (ensureOpen). */
  const unopened = new Map<string, { id: string; packType: PackType }>()
  const opening = new Map<string, Promise<Devbox | undefined>>()
  const openSlots = createLimiter(maxConcurrentOpens)
  let poolStarted: Promise<void> = Promise.resolve()

  const track = <T>(work: Promise<T>) => {
    pending.add(work)
    void work.finally(() => pending.delete(work)).catch(() => undefined)
    return work
  }

  const markReady = async (applicationId: string, box: Devbox) => {
    boxes.set(applicationId, box)
    states.set(applicationId, 'ready')
    await db
      .update(devboxes)
      .set({ status: 'ready', error: null })
      .where(eq(devboxes.applicationId, applicationId))
  }

  const markFailed = async (applicationId: string, error: unknown) => {
    const message = error instanceof Error ? error.message : String(error)
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
            const box = await driver.open(row.id, row.packType)
            unopened.delete(applicationId)
            // The application was deleted while its box was being opened.
            if (!states.has(applicationId)) return undefined
            // Its row already says ready: only this process's maps change.
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

  return {
    pool,
    confinement: options.confinement,
    appServers: options.appServers,

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
        return
      }
      states.set(applicationId, 'provisioning')
      void provisionCold(applicationId, packType, id)
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
      return boxes.get(applicationId)
    },

    /** Ready when the box exists and its dev server answers HTTP. */
    isEditorReady: async (applicationId: string) => {
      if (unopened.has(applicationId)) void ensureOpen(applicationId)
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
      await opening.get(applicationId)
      for (const row of rows) await driver.destroy(row.id)
    },

    /**
     * After a restart: the pool reopens its own boxes in the background, and each application's
     * box is opened on first use (a preview, a run, the editor-ready poll), so start-up does not
     * wait for dev servers however many workspaces there are.
     */
    start: async () => {
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
      await Promise.allSettled([...pending])
      await pool.close()
      // Production servers start again on their first request after a restart.
      await options.appServers?.close()
      await driver.shutdown()
    },
  }
}

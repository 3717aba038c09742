import { randomUUID } from 'node:crypto'
import type { Database } from '@sprout/db/database.ts'
import { devboxes } from '@sprout/db/schema/devboxes.ts'
import { requestDevServer } from '@sprout/devbox/dev-server-request.ts'
import type { Devbox, DevboxDriver, PackType } from '@sprout/devbox/devbox-driver.ts'
import type { DevboxLogger } from '@sprout/devbox/logger.ts'
import type { DevboxPool } from '@sprout/devbox/pool.ts'
import type { DevboxConfinement } from '@sprout/protocol/api/applications.ts'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import { toStorableText } from '@sprout/protocol/text/well-formed.ts'
import { eq } from 'drizzle-orm'

export type DevboxState = 'provisioning' | 'ready' | 'failed' | 'missing'

export type DevboxRuntime = ReturnType<typeof createDevboxRuntime>

/**
 * The dev boxes of applications on this server: handed out from the pool (or provisioned cold),
 * recorded in `devboxes`, and re-opened after a restart.
 */
export function createDevboxRuntime(options: {
  db: Database
  driver: DevboxDriver
  pool: DevboxPool
  logger: DevboxLogger
  /** The limits and enforcement of the driver's boxes, shown in the admin's pool tab. */
  confinement?: DevboxConfinement
}) {
  const { db, driver, pool, logger } = options
  const boxes = new Map<string, Devbox>()
  const states = new Map<string, DevboxState>()
  const pending = new Set<Promise<unknown>>()

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

  return {
    pool,
    confinement: options.confinement,

    /** Gives the application a box: a ready one from the pool at once, else one provisioned now. */
    attach: async (applicationId: string, packType: PackType = 'vite-react') => {
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

    state: (applicationId: string): DevboxState => states.get(applicationId) ?? 'missing',

    box: (applicationId: string) => boxes.get(applicationId),

    /** Ready when the box exists and its dev server answers HTTP. */
    isEditorReady: async (applicationId: string) => {
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
      for (const row of rows) await driver.destroy(row.id)
    },

    /** Re-opens every application's box after a restart and starts filling the pool. */
    start: async () => {
      await pool.start()
      const rows = await db.select().from(devboxes)
      for (const row of rows)
        states.set(row.applicationId, row.status === 'failed' ? 'failed' : 'provisioning')
      const restore = async () => {
        for (const row of rows) {
          if (row.status === 'failed') continue
          try {
            await markReady(row.applicationId, await driver.open(row.id, row.packType as PackType))
          } catch (error) {
            if (row.status === 'provisioning') {
              // Provisioning was cut off by the restart: nothing was built in it yet, start over.
              await driver.destroy(row.id).catch(() => undefined)
              await provisionCold(row.applicationId, row.packType as PackType, row.id)
            } else {
              await markFailed(row.applicationId, error)
            }
          }
        }
      }
      void track(restore())
    },

    stop: async () => {
      await Promise.allSettled([...pending])
      await pool.close()
      await driver.shutdown()
    },
  }
}

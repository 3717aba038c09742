import type { PoolStats } from '@sprout/protocol/api/applications.ts'
import type { Devbox, DevboxDriver, PackType } from './devbox-driver.ts'
import { type DevboxLogger, silentLogger } from './logger.ts'
import type { PoolPersistence, PoolRecord } from './pool-persistence.ts'
import { warmDevServer } from './warm-dev-server.ts'

export type DevboxPoolOptions = {
  driver: DevboxDriver
  /** Ready boxes to keep per pack type. */
  targets: Partial<Record<PackType, number>>
  logger?: DevboxLogger
  /** Records owned boxes so a restarted server reuses or destroys them; none keeps them in memory only. */
  persistence?: PoolPersistence
  /** Provisions running at once, across pack types. */
  maxConcurrentProvisions?: number
  retry?: { baseDelayMs?: number; maxDelayMs?: number; maxConsecutiveFailures?: number }
  /**
   * After a claim the pool waits this long before provisioning a replacement, so that the
   * claimed box's first page loads do not share the machine (and the server's event loop:
   * provisioning spawns processes) with a new box's set-up. 0: at once.
   */
  refillDelayMs?: number
}

export type DevboxPool = {
  /** Reuses or destroys the boxes recorded by a previous run, then starts filling up to the targets. */
  start: () => Promise<void>
  /** A ready box, taken out of the pool, or undefined when none is ready (provision one cold). */
  claim: (packType: PackType) => Promise<Devbox | undefined>
  stats: () => PoolStats
  /** Destroys the ready boxes of a pack type and provisions new ones (e.g. after a template change). */
  cycle: (packType: PackType) => Promise<void>
  /** Stops refilling and waits for provisions under way; ready boxes stay recorded for the next start. */
  close: () => Promise<void>
}

type PackState = {
  target: number
  ready: Devbox[]
  provisioning: number
  consecutiveFailures: number
  retryTimer: NodeJS.Timeout | undefined
  /** Set after too many failures in a row; `cycle` or the next `start` tries again. */
  paused: boolean
  /** Bumped by `cycle`, so boxes provisioned before it are not added afterwards. */
  generation: number
  /** No provisioning starts before this time (refillDelayMs after the last claim). */
  refillAfter: number
  refillTimer: NodeJS.Timeout | undefined
}

/**
 * Keeps `target` boxes per pack type provisioned and ready to be claimed
 * (docs/architecture/devbox.md "Pool").
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: one closure holds the pool's boxes, refill loop and stats its methods share
export function createDevboxPool(options: DevboxPoolOptions): DevboxPool {
  const { driver } = options
  const logger = options.logger ?? silentLogger
  const maxConcurrent = options.maxConcurrentProvisions ?? 2
  const baseDelayMs = options.retry?.baseDelayMs ?? 2000
  const maxDelayMs = options.retry?.maxDelayMs ?? 60_000
  const maxConsecutiveFailures = options.retry?.maxConsecutiveFailures ?? 5
  const refillDelayMs = options.refillDelayMs ?? 0
  const packs = new Map<PackType, PackState>(
    Object.entries(options.targets).map(([packType, target]) => [
      packType as PackType,
      {
        target: target ?? 0,
        ready: [],
        provisioning: 0,
        consecutiveFailures: 0,
        retryTimer: undefined,
        paused: false,
        generation: 0,
        refillAfter: 0,
        refillTimer: undefined,
      },
    ]),
  )
  const records = new Map<string, PoolRecord>()
  const inFlight = new Set<Promise<void>>()
  let failed = 0
  let started = false
  let closed = false
  let saving: Promise<void> = Promise.resolve()

  const persist = () => {
    const snapshot = [...records.values()]
    saving = saving
      .then(() => options.persistence?.save(snapshot))
      .catch((error: Error) =>
        logger.error('Could not save the dev box pool state', { error: error.message }),
      )
    return saving
  }

  const destroyQuietly = (id: string) =>
    driver.destroy(id).catch((error: Error) => {
      logger.warn('Could not destroy a dev box', { id, error: error.message })
    })

  const refillAll = () => {
    for (const packType of packs.keys()) refill(packType)
  }

  const refill = (packType: PackType) => {
    const pack = packs.get(packType)
    if (!pack || !started || closed) return
    const waitMs = pack.refillAfter - Date.now()
    if (waitMs > 0) {
      pack.refillTimer ??= setTimeout(() => {
        pack.refillTimer = undefined
        refill(packType)
      }, waitMs)
      pack.refillTimer.unref()
      return
    }
    while (
      pack.ready.length + pack.provisioning < pack.target &&
      pack.retryTimer === undefined &&
      !pack.paused &&
      inFlight.size < maxConcurrent
    ) {
      provisionOne(packType, pack)
    }
  }

  const provisionOne = (packType: PackType, pack: PackState) => {
    const id = crypto.randomUUID()
    const generation = pack.generation
    pack.provisioning += 1
    records.set(id, { id, packType, state: 'provisioning' })
    const work = (async () => {
      try {
        await persist()
        const box = await driver.provision(packType, { id })
        // Ready once its page has loaded once: the app that claims it does not wait for Vite's
        // first transforms and dependency bundling.
        await warmDevServer(box.devServer.target()).catch(() => 0)
        if (generation !== pack.generation) {
          records.delete(id)
          await destroyQuietly(id)
          return
        }
        pack.ready.push(box)
        pack.consecutiveFailures = 0
        records.set(id, { id, packType, state: 'ready' })
      } catch (error) {
        failed += 1
        pack.consecutiveFailures += 1
        records.delete(id)
        await destroyQuietly(id)
        scheduleRetry(packType, pack, error instanceof Error ? error.message : String(error))
      } finally {
        pack.provisioning -= 1
        await persist()
      }
    })()
    inFlight.add(work)
    void work.finally(() => {
      inFlight.delete(work)
      refillAll()
    })
  }

  const scheduleRetry = (packType: PackType, pack: PackState, reason: string) => {
    if (pack.consecutiveFailures >= maxConsecutiveFailures) {
      pack.paused = true
      logger.error(
        'Dev box provisioning keeps failing; the pool stops refilling until it is cycled',
        {
          packType,
          failures: pack.consecutiveFailures,
          error: reason,
        },
      )
      return
    }
    const waitMs = Math.min(baseDelayMs * 2 ** (pack.consecutiveFailures - 1), maxDelayMs)
    logger.warn('Dev box provisioning failed; retrying', {
      packType,
      retryInMs: waitMs,
      error: reason,
    })
    if (pack.retryTimer) clearTimeout(pack.retryTimer)
    pack.retryTimer = setTimeout(() => {
      pack.retryTimer = undefined
      refill(packType)
    }, waitMs)
    pack.retryTimer.unref()
  }

  return {
    start: async () => {
      if (started) return
      const previous = (await options.persistence?.load()) ?? []
      for (const record of previous) {
        const pack = packs.get(record.packType)
        if (record.state !== 'ready' || !pack || pack.ready.length >= pack.target) {
          await destroyQuietly(record.id)
          continue
        }
        try {
          pack.ready.push(await driver.open(record.id, record.packType))
          records.set(record.id, record)
        } catch (error) {
          logger.warn('Could not reuse a ready dev box; destroying it', {
            id: record.id,
            error: error instanceof Error ? error.message : String(error),
          })
          await destroyQuietly(record.id)
        }
      }
      await persist()
      started = true
      refillAll()
    },

    claim: async (packType) => {
      const pack = packs.get(packType)
      const box = pack?.ready.shift()
      if (!box) return undefined
      // Forgotten before it is handed out: a crash now leaks a folder instead of giving it twice.
      records.delete(box.id)
      if (refillDelayMs > 0 && pack) pack.refillAfter = Date.now() + refillDelayMs
      await persist()
      refill(packType)
      return box
    },

    stats: () => {
      const packStats: PoolStats['packs'] = {}
      let provisioning = 0
      for (const [packType, pack] of packs) {
        provisioning += pack.provisioning
        packStats[packType] = { ready: pack.ready.length, target: pack.target }
      }
      return { global: { provisioning, failed }, packs: packStats }
    },

    cycle: async (packType) => {
      const pack = packs.get(packType)
      if (!pack) throw new Error(`The pool has no pack type ${JSON.stringify(packType)}`)
      pack.generation += 1
      pack.paused = false
      pack.consecutiveFailures = 0
      if (pack.retryTimer) clearTimeout(pack.retryTimer)
      pack.retryTimer = undefined
      const old = pack.ready.splice(0)
      for (const box of old) records.delete(box.id)
      await persist()
      refill(packType)
      await Promise.all(old.map((box) => destroyQuietly(box.id)))
    },

    close: async () => {
      closed = true
      for (const pack of packs.values()) {
        if (pack.retryTimer) clearTimeout(pack.retryTimer)
        pack.retryTimer = undefined
        if (pack.refillTimer) clearTimeout(pack.refillTimer)
        pack.refillTimer = undefined
      }
      await Promise.all([...inFlight])
      await saving
    },
  }
}

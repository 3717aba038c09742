import type { Devbox, DevboxDriver, PackType } from './devbox-driver.ts'
import { type DevboxLogger, silentLogger } from './logger.ts'
import type { PoolPersistence, PoolRecord } from './pool-persistence.ts'
import { createStartQueue, type StartQueue } from './start-queue.ts'

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
  /** The server's box starts: the pool's provisions wait behind every user's (none: its own). */
  starts?: StartQueue
}

/** The pool's boxes of one pack type. */
export type PackState = {
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

/** What every verb of the pool shares (pool.ts builds it with createPoolState). */
export type PoolState = {
  driver: DevboxDriver
  logger: DevboxLogger
  persistence: PoolPersistence | undefined
  maxConcurrent: number
  baseDelayMs: number
  maxDelayMs: number
  maxConsecutiveFailures: number
  refillDelayMs: number
  starts: StartQueue
  packs: Map<PackType, PackState>
  /** The boxes the pool owns, as persisted. */
  records: Map<string, PoolRecord>
  /** Provisions under way. */
  inFlight: Set<Promise<void>>
  failed: number
  started: boolean
  closed: boolean
  /** Aborted on close: a warm-up under way stops instead of holding a stopping server. */
  closing: AbortController
  /** The latest save of `records`; saves run one after another. */
  saving: Promise<void>
}

export function createPoolState(options: DevboxPoolOptions): PoolState {
  return {
    driver: options.driver,
    logger: options.logger ?? silentLogger,
    persistence: options.persistence,
    maxConcurrent: options.maxConcurrentProvisions ?? 2,
    baseDelayMs: options.retry?.baseDelayMs ?? 2000,
    maxDelayMs: options.retry?.maxDelayMs ?? 60_000,
    maxConsecutiveFailures: options.retry?.maxConsecutiveFailures ?? 5,
    refillDelayMs: options.refillDelayMs ?? 0,
    starts: options.starts ?? createStartQueue(),
    packs: new Map(
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
    ),
    records: new Map(),
    inFlight: new Set(),
    failed: 0,
    started: false,
    closed: false,
    closing: new AbortController(),
    saving: Promise.resolve(),
  }
}

/** Queues a save of the records as they are now; resolves once it (and those before) are done. */
export function persistPool(state: PoolState) {
  const snapshot = [...state.records.values()]
  state.saving = state.saving
    .then(() => state.persistence?.save(snapshot))
    .catch((error: Error) =>
      state.logger.error('Could not save the dev box pool state', { error: error.message }),
    )
  return state.saving
}

export function destroyBoxQuietly(state: PoolState, id: string) {
  return state.driver.destroy(id).catch((error: Error) => {
    state.logger.warn('Could not destroy a dev box', { id, error: error.message })
  })
}

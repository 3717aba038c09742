import type { Devbox, DevboxDriver, PackType } from './devbox-driver.ts'
import { type DevboxLogger, silentLogger } from './logger.ts'
import { createMemoryPoolPersistence, type PoolPersistence } from './pool-persistence.ts'
import { createStartQueue, type StartQueue } from './start-queue.ts'

export type DevboxPoolOptions = {
  driver: DevboxDriver
  /** Ready boxes to keep per pack type. */
  targets: Partial<Record<PackType, number>>
  logger?: DevboxLogger
  /** Records owned boxes so a restarted server reuses or destroys them; none keeps them in memory only. */
  persistence?: PoolPersistence
  /**
   * Several instances share the records (docs/decisions/034-one-pool-in-a-table.md): a ready box
   * is kept closed (its files only) so that any instance may open it, and only while
   * `mayRefill()` (the leader) does this pool provision, up to the target counted over every
   * instance's boxes, looked at every `intervalMs` (2 s). Needs the persistence's `count`.
   */
  shared?: { mayRefill: () => boolean; intervalMs?: number }
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
  /**
   * The version of a pack type's starter (its files' hash, or the box image): a box recorded
   * from another version (Sprout upgraded, or its starter changed) is destroyed at start, not
   * handed to a new app.
   */
  templateOf?: (packType: PackType) => string | undefined
}

/** The pool's boxes of one pack type. */
export type PackState = {
  target: number
  /** Open boxes, ready to be handed out (a shared pool keeps none open: see `sharedReady`). */
  ready: Devbox[]
  /** A shared pool's ready boxes, every instance's, at its last look at the records. */
  sharedReady: number
  /** A shared pool's boxes being provisioned, by any instance, at its last look. */
  sharedProvisioning: number
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
  persistence: PoolPersistence
  shared: { mayRefill: () => boolean; intervalMs: number } | undefined
  /** A shared pool's look at the records (and refill on the leader), every `intervalMs`. */
  sharedTimer: NodeJS.Timeout | undefined
  maxConcurrent: number
  baseDelayMs: number
  maxDelayMs: number
  maxConsecutiveFailures: number
  refillDelayMs: number
  starts: StartQueue
  templateOf: (packType: PackType) => string | undefined
  packs: Map<PackType, PackState>
  /** Provisions under way. */
  inFlight: Set<Promise<void>>
  failed: number
  started: boolean
  closed: boolean
  /** Aborted on close: a warm-up under way stops instead of holding a stopping server. */
  closing: AbortController
}

export function createPoolState(options: DevboxPoolOptions): PoolState {
  if (options.shared && !options.persistence?.count) {
    throw new Error('A shared dev box pool needs a persistence that counts every instance’s boxes')
  }
  return {
    driver: options.driver,
    logger: options.logger ?? silentLogger,
    persistence: options.persistence ?? createMemoryPoolPersistence(),
    shared: options.shared && { intervalMs: 2000, ...options.shared },
    sharedTimer: undefined,
    maxConcurrent: options.maxConcurrentProvisions ?? 2,
    baseDelayMs: options.retry?.baseDelayMs ?? 2000,
    maxDelayMs: options.retry?.maxDelayMs ?? 60_000,
    maxConsecutiveFailures: options.retry?.maxConsecutiveFailures ?? 5,
    refillDelayMs: options.refillDelayMs ?? 0,
    starts: options.starts ?? createStartQueue(),
    templateOf: options.templateOf ?? (() => undefined),
    packs: new Map(
      Object.entries(options.targets).map(([packType, target]) => [
        packType as PackType,
        {
          target: target ?? 0,
          ready: [],
          sharedReady: 0,
          sharedProvisioning: 0,
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
    inFlight: new Set(),
    failed: 0,
    started: false,
    closed: false,
    closing: new AbortController(),
  }
}

/** Records a change; a failed write is logged, the box then stays or goes as the pool decided. */
export async function persistQuietly(
  state: PoolState,
  change: (persistence: PoolPersistence) => Promise<unknown>,
) {
  await change(state.persistence).catch((error: Error) =>
    state.logger.error('Could not save the dev box pool state', { error: error.message }),
  )
}

export function destroyBoxQuietly(state: PoolState, id: string) {
  return state.driver.destroy(id).catch((error: Error) => {
    state.logger.warn('Could not destroy a dev box', { id, error: error.message })
  })
}

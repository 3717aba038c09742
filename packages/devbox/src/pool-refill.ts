import type { PackType } from './devbox-driver.ts'
import { destroyBoxQuietly, type PackState, type PoolState, persistPool } from './pool-state.ts'
import { warmDevServer } from './warm-dev-server.ts'

// Refilling, provisioning and retrying call one another (each provision ends by refilling), so
// they live in one file (docs/architecture/devbox.md "Pool").

export function refillAllPacks(state: PoolState) {
  for (const packType of state.packs.keys()) refillPack(state, packType)
}

/** Provisions boxes until the pack reaches its target, within the limit of provisions at once. */
export function refillPack(state: PoolState, packType: PackType) {
  const pack = state.packs.get(packType)
  if (!pack || !state.started || state.closed) return
  const waitMs = pack.refillAfter - Date.now()
  if (waitMs > 0) {
    pack.refillTimer ??= setTimeout(() => {
      pack.refillTimer = undefined
      refillPack(state, packType)
    }, waitMs)
    pack.refillTimer.unref()
    return
  }
  while (
    pack.ready.length + pack.provisioning < pack.target &&
    pack.retryTimer === undefined &&
    !pack.paused &&
    state.inFlight.size < state.maxConcurrent
  ) {
    provisionOne(state, packType, pack)
  }
}

function provisionOne(state: PoolState, packType: PackType, pack: PackState) {
  const id = crypto.randomUUID()
  const generation = pack.generation
  pack.provisioning += 1
  state.records.set(id, { id, packType, state: 'provisioning' })
  const work = (async () => {
    try {
      await persistPool(state)
      // After every user's start waiting (docs/architecture/devbox.md "Starts at once").
      const box = await state.starts.run(
        id,
        async () => {
          if (state.closed) return undefined
          const provisioned = await state.driver.provision(packType, { id })
          // Ready once its page has loaded once: the app that claims it does not wait for Vite's
          // first transforms and dependency bundling.
          await warmDevServer(provisioned.devServer.target(), state.closing.signal).catch(() => 0)
          return provisioned
        },
        'background',
      )
      if (!box) {
        state.records.delete(id)
        return
      }
      if (generation !== pack.generation) {
        state.records.delete(id)
        await destroyBoxQuietly(state, id)
        return
      }
      pack.ready.push(box)
      pack.consecutiveFailures = 0
      state.records.set(id, { id, packType, state: 'ready' })
    } catch (error) {
      state.failed += 1
      pack.consecutiveFailures += 1
      state.records.delete(id)
      await destroyBoxQuietly(state, id)
      scheduleRetry(state, packType, pack, error instanceof Error ? error.message : String(error))
    } finally {
      pack.provisioning -= 1
      await persistPool(state)
    }
  })()
  state.inFlight.add(work)
  void work.finally(() => {
    state.inFlight.delete(work)
    refillAllPacks(state)
  })
}

function scheduleRetry(state: PoolState, packType: PackType, pack: PackState, reason: string) {
  if (pack.consecutiveFailures >= state.maxConsecutiveFailures) {
    pack.paused = true
    state.logger.error(
      'Dev box provisioning keeps failing; the pool stops refilling until it is cycled',
      {
        packType,
        failures: pack.consecutiveFailures,
        error: reason,
      },
    )
    return
  }
  const waitMs = Math.min(state.baseDelayMs * 2 ** (pack.consecutiveFailures - 1), state.maxDelayMs)
  state.logger.warn('Dev box provisioning failed; retrying', {
    packType,
    retryInMs: waitMs,
    error: reason,
  })
  if (pack.retryTimer) clearTimeout(pack.retryTimer)
  pack.retryTimer = setTimeout(() => {
    pack.retryTimer = undefined
    refillPack(state, packType)
  }, waitMs)
  pack.retryTimer.unref()
}

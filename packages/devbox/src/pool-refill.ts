import type { PackType } from './devbox-driver.ts'
import { destroyBoxQuietly, type PackState, type PoolState, persistQuietly } from './pool-state.ts'
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
  // A shared pool is refilled by one instance, the leader (docs/decisions/034-one-pool-in-a-table.md).
  if (state.shared && !state.shared.mayRefill()) return
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
    held(state, pack) < pack.target &&
    pack.retryTimer === undefined &&
    !pack.paused &&
    state.inFlight.size < state.maxConcurrent
  ) {
    provisionOne(state, packType, pack)
  }
}

/**
 * The pack's boxes, ready or on their way. A shared pool counts every instance's records at its
 * last look, its own provisions started since then included (those already recorded are in both).
 */
function held(state: PoolState, pack: PackState) {
  if (!state.shared) return pack.ready.length + pack.provisioning
  return pack.sharedReady + Math.max(pack.sharedProvisioning, pack.provisioning)
}

function provisionOne(state: PoolState, packType: PackType, pack: PackState) {
  const id = crypto.randomUUID()
  const generation = pack.generation
  pack.provisioning += 1
  let underWay = true
  // Counted as provisioning until it is ready or has failed, never as both at once.
  const settle = () => {
    if (underWay) pack.provisioning -= 1
    underWay = false
  }
  const work = (async () => {
    try {
      const template = state.templateOf(packType)
      await persistQuietly(state, (records) =>
        records.put({ id, packType, state: 'provisioning', template }),
      )
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
        await persistQuietly(state, (records) => records.remove(id))
        return
      }
      if (generation !== pack.generation) {
        await persistQuietly(state, (records) => records.remove(id))
        await destroyBoxQuietly(state, id)
        return
      }
      pack.consecutiveFailures = 0
      if (state.shared) {
        // Its files only: whichever instance claims it opens it (decision 034).
        await state.driver.close?.(id)
        pack.sharedReady += 1
      } else {
        // In memory before its record says ready, so a claim that takes the record finds it.
        pack.ready.push(box)
      }
      settle()
      await persistQuietly(state, (records) =>
        records.put({ id, packType, state: 'ready', template }),
      )
    } catch (error) {
      state.failed += 1
      pack.consecutiveFailures += 1
      await persistQuietly(state, (records) => records.remove(id))
      await destroyBoxQuietly(state, id)
      scheduleRetry(state, packType, pack, error instanceof Error ? error.message : String(error))
    } finally {
      settle()
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

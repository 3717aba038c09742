import { devboxes } from '@sprout/db/schema/devboxes.ts'
import type { PackType } from '@sprout/devbox/devbox-driver.ts'
import { guarded } from '@sprout/devbox/guarded.ts'
import { type DevboxRuntimeState, track } from './devbox-runtime-state.ts'
import { provisionCold } from './provision-cold.ts'
import { recordEveryMs, recordLastUse } from './record-last-use.ts'
import { suspendIdle } from './suspend-idle.ts'

/** Idle dev servers are looked for this often at most (a quarter of the idle time, 50 ms..30 s). */
const maxSweepMs = 30_000

/**
 * After a restart: the pool reopens its own boxes in the background, and each application's box
 * is opened on first use (a preview, a run, the editor-ready poll), so start-up does not wait for
 * dev servers however many workspaces there are.
 */
export async function startRuntime(state: DevboxRuntimeState) {
  if (state.idleMs > 0) startIdleTimers(state)
  state.poolStarted = track(state, state.pool.start())
  // Several instances: each box is taken with its lease, never by every instance at start
  // (docs/decisions/033-box-leases-and-relay.md).
  if (state.boxesByLease) return
  const rows = await state.db.select().from(devboxes)
  for (const row of rows) takeRow(state, row)
}

/**
 * What the runtime knows of a recorded box: a built one (`built_at`) is opened on first use, its
 * workspace kept; one never built is provisioned anew (docs/architecture/devbox.md "Starts at once").
 */
export function takeRow(state: DevboxRuntimeState, row: typeof devboxes.$inferSelect) {
  if (row.status === 'failed') {
    state.states.set(row.applicationId, 'failed')
    // Told before the restart, or never: the builder's first ask starts it again.
    state.failureReported.add(row.applicationId)
    return
  }
  state.states.set(row.applicationId, 'provisioning')
  if (row.status === 'ready' || row.builtAt !== null) {
    state.unopened.set(row.applicationId, { id: row.id, packType: row.packType as PackType })
    return
  }
  // Provisioning was cut off by the restart and the box was never built: start over.
  void track(
    state,
    (async () => {
      await state.driver.destroy(row.id).catch(() => undefined)
      await provisionCold(state, row.applicationId, row.packType as PackType, row.id)
    })(),
  )
}

/**
 * The idle sweep over the boxes this instance runs (the lease holder's, decision 033), and the
 * writes of this instance's uses to the boxes' rows that the sweeps of every instance read
 * (docs/decisions/036-idle-stops-from-the-row.md).
 */
function startIdleTimers(state: DevboxRuntimeState) {
  const sweep = oneAtATime(() => suspendIdle(state))
  state.sweepTimer = setInterval(
    guarded(state.logger, 'Stopping idle dev servers', sweep),
    Math.min(maxSweepMs, Math.max(50, state.idleMs / 4)),
  )
  state.sweepTimer.unref()
  const record = oneAtATime(() => recordLastUse(state))
  state.recordTimer = setInterval(
    guarded(state.logger, "Recording dev boxes' last use", record),
    recordEveryMs(state.idleMs),
  )
  state.recordTimer.unref()
}

/** `work`, skipped while its previous call is still under way (a slow database). */
function oneAtATime(work: () => Promise<void>) {
  let running: Promise<void> | undefined
  return () => {
    if (running) return running
    running = work().finally(() => {
      running = undefined
    })
    return running
  }
}

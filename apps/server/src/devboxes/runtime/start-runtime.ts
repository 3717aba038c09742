import { devboxes } from '@sprout/db/schema/devboxes.ts'
import type { PackType } from '@sprout/devbox/devbox-driver.ts'
import { guarded } from '@sprout/devbox/guarded.ts'
import { type DevboxRuntimeState, track } from './devbox-runtime-state.ts'
import { provisionCold } from './provision-cold.ts'
import { suspendIdle } from './suspend-idle.ts'

/** Idle dev servers are looked for this often at most (a quarter of the idle time, 50 ms..30 s). */
const maxSweepMs = 30_000

/**
 * After a restart: the pool reopens its own boxes in the background, and each application's box
 * is opened on first use (a preview, a run, the editor-ready poll), so start-up does not wait for
 * dev servers however many workspaces there are.
 */
export async function startRuntime(state: DevboxRuntimeState) {
  if (state.idleMs > 0) {
    state.sweepTimer = setInterval(
      guarded(state.logger, 'Stopping idle dev servers', () => suspendIdle(state)),
      Math.min(maxSweepMs, Math.max(50, state.idleMs / 4)),
    )
    state.sweepTimer.unref()
  }
  state.poolStarted = track(state, state.pool.start())
  // Several instances: each box is taken with its lease, never by every instance at start
  // (docs/decisions/033-box-leases-and-relay.md).
  if (state.boxesByLease) return
  const rows = await state.db.select().from(devboxes)
  for (const row of rows) takeRow(state, row)
}

/** What the runtime knows of a recorded box: opened on first use, or provisioned again. */
export function takeRow(state: DevboxRuntimeState, row: typeof devboxes.$inferSelect) {
  if (row.status === 'failed') {
    state.states.set(row.applicationId, 'failed')
    // Told before the restart, or never: the builder's first ask starts it again.
    state.failureReported.add(row.applicationId)
    return
  }
  state.states.set(row.applicationId, 'provisioning')
  if (row.status === 'ready') {
    state.unopened.set(row.applicationId, { id: row.id, packType: row.packType as PackType })
    return
  }
  // Provisioning was cut off by the restart: nothing was built in it yet, start over.
  void track(
    state,
    (async () => {
      await state.driver.destroy(row.id).catch(() => undefined)
      await provisionCold(state, row.applicationId, row.packType as PackType, row.id)
    })(),
  )
}

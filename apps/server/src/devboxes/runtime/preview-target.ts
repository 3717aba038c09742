import { setTimeout as delay } from 'node:timers/promises'
import type { DevServerTarget } from '@sprout/devbox/devbox-driver.ts'
import type { DevboxRuntimeState } from './devbox-runtime-state.ts'
import { ensureOpen } from './ensure-open.ts'
import { wake } from './wake.ts'

/**
 * Where the preview proxy reaches the application's dev server: a use that opens the box or
 * starts an idle dev server, waiting up to `timeoutMs` for it to answer; undefined if not.
 */
export async function previewTarget(
  state: DevboxRuntimeState,
  applicationId: string,
  timeoutMs: number,
): Promise<DevServerTarget | undefined> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (state.unopened.has(applicationId)) void ensureOpen(state, applicationId)
    void wake(state, applicationId)
    const current = state.states.get(applicationId)
    if (current === undefined || current === 'failed') return undefined
    const devServer = state.boxes.get(applicationId)?.devServer
    const target = devServer?.target()
    if (target || Date.now() >= deadline) return target
    // A dev server that app code broke restarts by itself; waiting would only delay the page.
    if (devServer?.status() === 'crashed' && !state.waking.has(applicationId)) return undefined
    await delay(25)
  }
}

import { setTimeout as delay } from 'node:timers/promises'
import { requestDevServer } from '@sprout/devbox/dev-server-request.ts'
import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import type { DevboxRuntimeState } from './devbox-runtime-state.ts'
import { ensureOpen } from './ensure-open.ts'
import { wake } from './wake.ts'

/**
 * The application's box, waiting for it to be opened (after a restart) or provisioned, up to
 * `timeoutMs`; undefined when it failed, is missing or took longer.
 */
export async function whenReady(
  state: DevboxRuntimeState,
  applicationId: string,
  timeoutMs: number,
): Promise<Devbox | undefined> {
  const deadline = Date.now() + timeoutMs
  if (state.unopened.has(applicationId)) await ensureOpen(state, applicationId)
  while (state.states.get(applicationId) === 'provisioning' && Date.now() < deadline) {
    await delay(100)
  }
  if (state.boxes.has(applicationId)) await wake(state, applicationId)
  return state.boxes.get(applicationId)
}

/** Ready when the box exists and its dev server answers HTTP. */
export async function isEditorReady(state: DevboxRuntimeState, applicationId: string) {
  if (state.unopened.has(applicationId)) void ensureOpen(state, applicationId)
  if (state.boxes.has(applicationId)) void wake(state, applicationId)
  const target = state.boxes.get(applicationId)?.devServer.target()
  if (!target) return false
  try {
    return (await requestDevServer(target)).status < 500
  } catch {
    return false
  }
}

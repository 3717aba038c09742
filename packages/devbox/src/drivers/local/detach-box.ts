import type { LocalDriverState } from './local-driver-state.ts'

/** Stops the box's commands, dev server and sandbox; its workspace stays. */
export async function detachBox(state: LocalDriverState, id: string): Promise<void> {
  const entry = state.attached.get(id)
  if (!entry) return
  state.attached.delete(id)
  entry.stopAll.abort()
  await entry.box.devServer.stop()
  await entry.release()
}

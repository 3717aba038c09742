import { setTimeout as delay } from 'node:timers/promises'
import type { AppServerInstance } from './app-server-instance.ts'
import type { AppServerManagerState } from './app-server-manager-state.ts'

const defaultDrainTimeoutMs = 30_000

/** Stops a replaced instance once it has answered its requests, or after drainTimeoutMs. */
export async function drainAndStopAppServer(
  { options, inFlight, now }: AppServerManagerState,
  instance: AppServerInstance,
) {
  const deadline = now() + (options.drainTimeoutMs ?? defaultDrainTimeoutMs)
  while ((inFlight.get(instance) ?? 0) > 0 && now() < deadline && instance.running()) {
    await delay(20)
  }
  inFlight.delete(instance)
  await instance.stop()
}

import { rm } from 'node:fs/promises'
import type { BoxSandboxState } from './box-sandbox-state.ts'

/** Kills every process of the box and removes its namespace, cgroups and sockets. */
export async function releaseBoxSandbox(state: BoxSandboxState): Promise<void> {
  await state.cgroup?.remove()
  state.cgroup = undefined
  await state.network?.stop()
  state.network = undefined
  await state.closeEgress?.()
  state.closeEgress = undefined
  await rm(state.boxRunDirectory, { recursive: true, force: true })
}

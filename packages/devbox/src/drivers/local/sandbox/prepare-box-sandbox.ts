import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { createBoxCgroup } from './box-cgroup.ts'
import { type BoxSandboxState, boxDevPort, boxProxyPort } from './box-sandbox-state.ts'
import { startBoxNetwork } from './network-namespace.ts'

/** Starts what the box's processes need (network, egress door, cgroups); idempotent. */
export async function prepareBoxSandbox(state: BoxSandboxState): Promise<void> {
  state.preparing ??= prepareOnce(state).finally(() => {
    state.preparing = undefined
  })
  await state.preparing
}

async function prepareOnce(state: BoxSandboxState): Promise<void> {
  const { tools, boxId } = state
  // Made again when gone: a process joining a missing cgroup could not start at all.
  if (tools.cgroups && !state.cgroup?.present()) {
    state.cgroup = createBoxCgroup(tools.cgroups, boxId, state.limits)
  }
  if (!state.confinedNetwork || !tools.egress || !tools.bubblewrapPath) return
  if (state.network?.alive()) return
  await state.network?.stop()
  await mkdir(state.boxRunDirectory, { recursive: true, mode: 0o700 })
  const egressSocketPath = path.join(state.boxRunDirectory, 'egress.sock')
  state.closeEgress ??= await tools.egress.listen(egressSocketPath, boxId)
  state.network = await startBoxNetwork({
    bubblewrapPath: tools.bubblewrapPath,
    rootArguments: tools.rootArguments,
    toolchain: tools.toolchain,
    boxId,
    egressSocketPath,
    devSocketPath: path.join(state.boxRunDirectory, 'dev.sock'),
    proxyPort: boxProxyPort,
    devPort: boxDevPort,
    logger: state.logger,
  })
}

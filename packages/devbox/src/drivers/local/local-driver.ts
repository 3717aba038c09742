import type { StartAppServer } from '../../app-servers/app-server-instance.ts'
import type { DevboxDriver, PackType } from '../../devbox-driver.ts'
import { diskTargets } from './box-locations.ts'
import { destroyBox } from './destroy-box.ts'
import { detachBox } from './detach-box.ts'
import {
  createLocalDriverState,
  type LocalDevbox,
  type LocalDriverOptions,
} from './local-driver-state.ts'
import { openBox } from './open-box.ts'
import { provisionBox } from './provision-box.ts'
import type { BoxLimits } from './sandbox/box-cgroup.ts'
import type { Enforcement } from './sandbox/sandbox.ts'

// The driver's entry keeps the types others import from it.
export type { LocalDevbox, LocalDriverOptions } from './local-driver-state.ts'

export type LocalDriver = Omit<DevboxDriver, 'provision' | 'open'> & {
  provision: (packType: PackType, options?: { id?: string }) => Promise<LocalDevbox>
  open: (
    id: string,
    packType: PackType,
    options?: { env?: Record<string, string> },
  ) => Promise<LocalDevbox>
  /** True when commands and dev servers run under bubblewrap. */
  sandboxed: boolean
  /** What confines boxes on this machine, and the limits each box gets. */
  enforcement: Enforcement
  limits: BoxLimits
  /**
   * Starts a production server of a deploy in a sandbox of its own, confined like a dev box
   * (docs/architecture/devbox.md, "Production servers"); resolves once it answers its health
   * route, throws AppServerStartError otherwise.
   */
  startAppServer: StartAppServer
}

/**
 * Dev boxes as folders on this machine, each with a dev-server process
 * (docs/architecture/devbox.md). Its state and verbs are the files beside this one.
 */
export function createLocalDriver(options: LocalDriverOptions): LocalDriver {
  const state = createLocalDriverState(options)
  const { sandbox, attached, appServers } = state
  return {
    sandboxed: sandbox.enabled,
    enforcement: sandbox.enforcement,
    limits: sandbox.limits,
    provision: (packType, provisionOptions) => provisionBox(state, packType, provisionOptions),
    open: (id, packType, openOptions) => openBox(state, id, packType, openOptions),
    destroy: (id) => destroyBox(state, id),
    close: async (id) => {
      await detachBox(state, id)
      // Another instance may open the box next (decision 033): one image is never mounted twice.
      await state.disks.close(id, diskTargets(state, id))
    },
    startAppServer: appServers.start,
    shutdown: async () => {
      await Promise.all([
        ...[...attached.keys()].map((id) => detachBox(state, id)),
        appServers.stopAll(),
      ])
      // A stopped server keeps no mount and no loop device (docs/architecture/devbox.md "Disk").
      await state.disks.releaseAll()
    },
  }
}

import path from 'node:path'
import type { DevboxLogger } from '../../../logger.ts'
import type { BoxCgroup, BoxLimits } from './box-cgroup.ts'
import type { BoxNetwork } from './network-namespace.ts'
import type { SandboxTools } from './sandbox-tools.ts'

/** Inside its own namespace every box's dev server and egress door use the same ports. */
export const boxDevPort = 5173
export const boxProxyPort = 3128
/**
 * Where the workspace appears inside the sandbox: the same for every box, so app code learns no
 * host path, and reachable by the box's uid whatever the permissions of the folders above
 * DATA_DIR.
 */
export const workspaceInside = '/home/sprout/app'
/** Where the app's data folder (its database) appears inside the sandbox, outside the source tree. */
export const dataInside = '/home/sprout/data'

export type BoxSandboxInput = {
  boxId: string
  workspacePath: string
  /**
   * The app's data folder (its embedded database): writable by the box but outside the
   * workspace, so checkpoints and deploys never copy it. DATABASE_URL points into it.
   */
  dataPath?: string
  /** Mounts the workspace read-only: a production server may not change its own deploy. */
  readOnlyWorkspace?: boolean
  tools: SandboxTools
  /** The box's own uid and gid (root with full confinement), else undefined: the server's. */
  user?: { uid: number; gid: number }
  limits: BoxLimits
  logger: DevboxLogger
}

/** One box's confinement, shared by the verbs of box-sandbox.ts (its cgroup, namespace, door). */
export type BoxSandboxState = BoxSandboxInput & {
  boxRunDirectory: string
  /** The box has a network namespace of its own, with the egress proxy as its way out. */
  confinedNetwork: boolean
  network: BoxNetwork | undefined
  closeEgress: (() => Promise<void>) | undefined
  cgroup: BoxCgroup | undefined
  preparing: Promise<void> | undefined
  /** Where bubblewrap's option files are written, made at the first command. */
  argumentsDirectory: string | undefined
}

export function createBoxSandboxState(input: BoxSandboxInput): BoxSandboxState {
  return {
    ...input,
    boxRunDirectory: path.join(input.tools.runDirectory, input.boxId),
    confinedNetwork: input.tools.egress !== undefined && input.tools.nsenterPath !== undefined,
    network: undefined,
    closeEgress: undefined,
    cgroup: undefined,
    preparing: undefined,
    argumentsDirectory: undefined,
  }
}

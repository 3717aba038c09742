import type { DevServerTarget } from '../../../devbox-driver.ts'
import type { ProcessCommand } from '../processes/process-group.ts'
import { assertWithinDiskLimit } from '../workspace/workspace-usage.ts'
import { boxCommand } from './box-command.ts'
import { boxEnvironmentFile, boxSandboxVariables } from './box-sandbox-environment.ts'
import {
  type BoxSandboxInput,
  boxDevPort,
  createBoxSandboxState,
  workspaceInside,
} from './box-sandbox-state.ts'
import { prepareBoxSandbox } from './prepare-box-sandbox.ts'
import { releaseBoxSandbox } from './release-box-sandbox.ts'

export type BoxSandbox = {
  /** The workspace's path as the box's processes see it (HOME, the working directory). */
  workspaceInside: string
  /** The uid/gid that owns the workspace and runs its processes; undefined: the server's own. */
  owner: { uid: number; gid: number } | undefined
  /** The dev server's port when the box has its own network (else a free host port is used). */
  fixedDevPort: number | undefined
  /** Starts what the box's processes need (network, egress door, cgroups); idempotent. */
  prepare: () => Promise<void>
  /** What runs `script` with bash as a login shell inside the box (spawnProcessGroup starts it). */
  commandFor: (input: { cwd: string; script: string; path: string }) => ProcessCommand
  /** Variables every process of the box gets (the egress proxy, DATABASE_URL). */
  environment: Record<string, string>
  /** How the server reaches the dev server listening on `port` inside the box. */
  devServerTarget: (port: number) => DevServerTarget
  /**
   * Where Sprout writes the variables a running dev server takes without a restart
   * (SPROUT_APP_TOKEN, SENTRY_DSN, SPROUT_INTERNAL_URL, SPROUT_APP_ORIGINS): a file in the box's
   * data folder, outside the workspace, on the host and as the box sees it; undefined without a
   * data folder.
   */
  environmentFile: { host: string; inside: string } | undefined
  /** Throws a clear error while the workspace is over its disk limit. */
  assertDiskSpace: () => Promise<void>
  /** Kills every process of the box and removes its namespace, cgroups and sockets. */
  release: () => Promise<void>
}

/** The confinement of one box; its state and verbs are the files beside this one. */
export function createBoxSandbox(input: BoxSandboxInput): BoxSandbox {
  const state = createBoxSandboxState(input)
  const { tools, workspacePath, limits, dataPath } = state
  return {
    workspaceInside: tools.bubblewrapPath ? workspaceInside : workspacePath,
    owner: state.user,
    fixedDevPort: state.confinedNetwork ? boxDevPort : undefined,
    prepare: () => prepareBoxSandbox(state),
    commandFor: (command) => boxCommand(state, command),
    environment: boxSandboxVariables(state),
    environmentFile: boxEnvironmentFile(state),
    devServerTarget: (port) =>
      state.confinedNetwork && state.network
        ? { socketPath: state.network.devSocketPath }
        : { host: '127.0.0.1', port },
    assertDiskSpace: () =>
      assertWithinDiskLimit(workspacePath, limits.diskMb, dataPath ? [dataPath] : []),
    release: () => releaseBoxSandbox(state),
  }
}

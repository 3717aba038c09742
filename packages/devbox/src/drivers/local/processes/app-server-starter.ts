import { execFile } from 'node:child_process'
import { mkdir, realpath } from 'node:fs/promises'
import { promisify } from 'node:util'
import { createInstanceId } from '../../../app-servers/instance-id.ts'
import { trackInstances } from '../../../app-servers/track-instances.ts'
import type { DevboxLogger } from '../../../logger.ts'
import type { BoxDisks } from '../sandbox/box-disks.ts'
import type { Sandbox } from '../sandbox/sandbox.ts'
import { ensureOwner } from '../workspace/ensure-owner.ts'
import { startAppServerProcess } from './app-server-process.ts'

const runFile = promisify(execFile)

/**
 * The local driver's production servers (docs/architecture/devbox.md "Production servers"): each in
 * its own sandbox, deploy read-only, data owned by the box uid and where possible on an
 * APPS_DISK_MB image (box-disks.ts).
 */
export function createAppServerStarter(input: {
  sandbox: Sandbox
  logger: DevboxLogger
  disks?: BoxDisks
  /** APPS_DISK_MB: the size of the data folder's image. */
  appsDiskMb?: number
}) {
  return trackInstances(async (request) => {
    const instanceId = createInstanceId(request.appId)
    const deployPath = await realpath(request.deployPath)
    await mkdir(request.dataPath, { recursive: true, mode: 0o700 })
    // Mounted at the first start and kept (a restart reuses it); removeDeploys unmounts it.
    if (input.disks && input.appsDiskMb) {
      await input.disks.openAppData(request.dataPath, input.appsDiskMb)
    }
    const boxSandbox = input.sandbox.forBox({
      boxId: instanceId,
      workspacePath: deployPath,
      dataPath: request.dataPath,
      readOnlyWorkspace: true,
      // One uid per app, kept across its deploys and restarts (its data folder is chowned to it).
      uidKey: `app:${request.appId}`,
    })
    if (boxSandbox.owner) {
      await ensureOwner(request.dataPath, boxSandbox.owner)
      // The deploy is the server's copy, readable by the box's uid whatever the umask was.
      await runFile('chmod', ['-R', 'a+rX', deployPath])
    }
    return startAppServerProcess({
      ...request,
      instanceId,
      deployPath,
      sandbox: boxSandbox,
      logger: input.logger,
    })
  })
}

import { randomUUID } from 'node:crypto'
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import path from 'node:path'
import type { DevServerTarget } from '../../devbox-driver.ts'
import type { DevboxLogger } from '../../logger.ts'
import { type BoxCgroup, type BoxLimits, createBoxCgroup } from './box-cgroup.ts'
import { type BoxNetwork, startBoxNetwork } from './network-namespace.ts'
import { keptByBoxKeeper, type ProcessCommand } from './process-group.ts'
import type { SandboxTools } from './sandbox.ts'
import { shellQuote } from './sandbox.ts'
import { assertWithinDiskLimit } from './workspace-usage.ts'

/** Inside its own namespace every box's dev server and egress door use the same ports. */
export const boxDevPort = 5173
export const boxProxyPort = 3128
const proxyUrl = `http://127.0.0.1:${boxProxyPort}`
/**
 * Where the workspace appears inside the sandbox: the same for every box, so app code learns no
 * host path, and reachable by the box's uid whatever the permissions of the folders above
 * DATA_DIR.
 */
export const workspaceInside = '/home/sprout/app'
/** Where the app's data folder (its database) appears inside the sandbox, outside the source tree. */
export const dataInside = '/home/sprout/data'
/** The dev server's live variables in the data folder (BoxSandbox.environmentFile). */
const environmentFileName = 'sprout-env.json'

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
   * (SPROUT_APP_TOKEN, SENTRY_DSN, SPROUT_INTERNAL_URL): a file in the box's data folder,
   * outside the workspace, on the host and as the box sees it; undefined without a data folder.
   */
  environmentFile: { host: string; inside: string } | undefined
  /** Throws a clear error while the workspace is over its disk limit. */
  assertDiskSpace: () => Promise<void>
  /** Kills every process of the box and removes its namespace, cgroups and sockets. */
  release: () => Promise<void>
}

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: one closure holds a box's confinement (cgroup, namespace, limits) its methods share
export function createBoxSandbox(input: {
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
  limits: BoxLimits
  logger: DevboxLogger
}): BoxSandbox {
  const { tools, limits, boxId, workspacePath } = input
  const boxRunDirectory = path.join(tools.runDirectory, boxId)
  const confinedNetwork = tools.egress !== undefined && tools.nsenterPath !== undefined
  let network: BoxNetwork | undefined
  let closeEgress: (() => Promise<void>) | undefined
  let cgroup: BoxCgroup | undefined
  let preparing: Promise<void> | undefined

  const prepareOnce = async () => {
    // Made again when gone: a process joining a missing cgroup could not start at all.
    if (tools.cgroups && !cgroup?.present()) cgroup = createBoxCgroup(tools.cgroups, boxId, limits)
    if (!confinedNetwork || !tools.egress || !tools.bubblewrapPath) return
    if (network?.alive()) return
    await network?.stop()
    await mkdir(boxRunDirectory, { recursive: true, mode: 0o700 })
    const egressSocketPath = path.join(boxRunDirectory, 'egress.sock')
    closeEgress ??= await tools.egress.listen(egressSocketPath, boxId)
    network = await startBoxNetwork({
      bubblewrapPath: tools.bubblewrapPath,
      boxId,
      egressSocketPath,
      devSocketPath: path.join(boxRunDirectory, 'dev.sock'),
      proxyPort: boxProxyPort,
      devPort: boxDevPort,
      logger: input.logger,
    })
  }

  const limitScript = () => {
    const lines = [`ulimit -f ${limits.diskMb * 1024} 2>/dev/null`, 'ulimit -c 0']
    if (tools.bubblewrapPath && !tools.cgroups) {
      // Without cgroups RLIMIT_NPROC is what is left; it counts every process of the user.
      lines.push(`ulimit -u ${limits.pids + processesOfCurrentUser()} 2>/dev/null`)
    }
    return lines.join('\n')
  }

  const databaseUrl = (dataPath: string) =>
    `file:${path.posix.join(tools.bubblewrapPath ? dataInside : dataPath, 'app.db')}`

  const insidePath = (hostPath: string) =>
    tools.bubblewrapPath
      ? path.posix.join(workspaceInside, path.relative(workspacePath, hostPath))
      : hostPath

  const commandFor: BoxSandbox['commandFor'] = ({ cwd, script, path: searchPath }) => {
    // A login shell reads /etc/profile, which resets PATH; put the box's PATH back first.
    const loginScript = `export PATH=${shellQuote(searchPath)}\n${limitScript()}\n${script}`
    if (!tools.bubblewrapPath) {
      return { argv: keptByBoxKeeper(['bash', '-lc', loginScript]) }
    }
    const user = tools.boxUser
    const bubblewrapArguments = [
      ...tools.rootArguments,
      input.readOnlyWorkspace ? '--ro-bind' : '--bind',
      workspacePath,
      workspaceInside,
      ...(input.dataPath ? ['--bind', input.dataPath, dataInside] : []),
      '--chdir',
      insidePath(cwd),
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-uts',
      '--hostname',
      'sprout-box',
      '--unshare-cgroup-try',
      // Unprivileged, bubblewrap's own user namespace is closed to nested ones; as root the
      // seccomp filter refuses them (and every other new namespace).
      ...(tools.unprivileged ? ['--unshare-user', '--disable-userns'] : []),
      ...(tools.seccompPath ? ['--seccomp', '4'] : []),
      '--die-with-parent',
    ]
    const command: string[] = []
    if (user && tools.setprivPath) {
      // bubblewrap keeps root's capabilities for setpriv, which drops them all with the uid.
      command.push(
        tools.setprivPath,
        `--reuid=${user.uid}`,
        `--regid=${user.gid}`,
        '--clear-groups',
        '--no-new-privs',
        '--bounding-set=-all',
        '--inh-caps=-all',
        '--',
      )
    } else {
      bubblewrapArguments.push('--cap-drop', 'ALL')
    }
    command.push('bash', '-lc', loginScript)
    return wrapCommand(bubblewrapArguments, command)
  }

  /**
   * bubblewrap reads its options from a file (`--args 3`), deleted once opened, so that the box's
   * pid 1 shows no host path or box id, only `bwrap --args 3 -- {command}`; the seccomp filter is
   * descriptor 4. The server opens both as it starts the process (process-group.ts), so no shell
   * has to open or delete anything. The prelude joins the box's cgroups and the command enters
   * its network namespace before bubblewrap, so nothing of the box escapes either.
   */
  const wrapCommand = (bubblewrapArguments: string[], command: string[]): ProcessCommand => {
    // NUL separates the options in the file: a path holding one would add options of its own.
    if ([...bubblewrapArguments, ...command].some((argument) => argument.includes('\0'))) {
      throw new Error('A command cannot contain NUL bytes')
    }
    const prelude = (cgroup?.procsFiles ?? [])
      .map((file) => `echo $$ > ${shellQuote(file)} && `)
      .join('')
    const enterNetwork =
      confinedNetwork && network && tools.nsenterPath
        ? [tools.nsenterPath, `--net=${network.namespacePath()}`, '--']
        : []
    const openInheritedFiles = () => {
      argumentsDirectory ??= mkdirArgumentsDirectory()
      const argumentsFile = path.join(argumentsDirectory, `${boxId}-${randomUUID()}`)
      writeFileSync(argumentsFile, `${bubblewrapArguments.join('\0')}\0`, { mode: 0o600 })
      const descriptors: number[] = []
      try {
        descriptors.push(openSync(argumentsFile, 'r'))
        if (tools.seccompPath) descriptors.push(openSync(tools.seccompPath, 'r'))
        return descriptors
      } catch (error) {
        for (const descriptor of descriptors) closeSync(descriptor)
        throw error
      } finally {
        unlinkSync(argumentsFile)
      }
    }
    return {
      argv: [...enterNetwork, tools.bubblewrapPath ?? 'bwrap', '--args', '3', '--', ...command],
      prelude,
      openInheritedFiles,
    }
  }
  let argumentsDirectory: string | undefined
  const mkdirArgumentsDirectory = () => {
    const directory = path.join(tools.runDirectory, 'arguments')
    mkdirSync(directory, { recursive: true, mode: 0o700 })
    return directory
  }

  return {
    workspaceInside: tools.bubblewrapPath ? workspaceInside : workspacePath,
    owner: tools.boxUser,
    fixedDevPort: confinedNetwork ? boxDevPort : undefined,
    prepare: async () => {
      preparing ??= prepareOnce().finally(() => {
        preparing = undefined
      })
      await preparing
    },
    commandFor,
    environment: {
      // Sprout's own Node first, at the path boxes see it (box-root.ts), wherever it is installed.
      ...(tools.bubblewrapPath ? { PATH: `${tools.toolchain.binInside}:${systemPath}` } : {}),
      ...(input.dataPath ? { DATABASE_URL: databaseUrl(input.dataPath) } : {}),
      ...(confinedNetwork ? proxyEnvironment : {}),
    },
    environmentFile: input.dataPath
      ? {
          host: path.join(input.dataPath, environmentFileName),
          inside: path.posix.join(
            tools.bubblewrapPath ? dataInside : input.dataPath,
            environmentFileName,
          ),
        }
      : undefined,
    devServerTarget: (port) =>
      confinedNetwork && network
        ? { socketPath: network.devSocketPath }
        : { host: '127.0.0.1', port },
    assertDiskSpace: () =>
      assertWithinDiskLimit(workspacePath, limits.diskMb, input.dataPath ? [input.dataPath] : []),
    release: async () => {
      await cgroup?.remove()
      cgroup = undefined
      await network?.stop()
      network = undefined
      await closeEgress?.()
      closeEgress = undefined
      await rm(boxRunDirectory, { recursive: true, force: true })
    },
  }
}

const systemPath = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'

const proxyEnvironment = {
  HTTP_PROXY: proxyUrl,
  HTTPS_PROXY: proxyUrl,
  http_proxy: proxyUrl,
  https_proxy: proxyUrl,
  NO_PROXY: 'localhost,127.0.0.1,::1',
  no_proxy: 'localhost,127.0.0.1,::1',
  NODE_USE_ENV_PROXY: '1',
  npm_config_proxy: proxyUrl,
  npm_config_https_proxy: proxyUrl,
}

function processesOfCurrentUser(): number {
  const uid = process.getuid?.()
  let count = 0
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      if (statSync(`/proc/${name}`).uid === uid) count += 1
    } catch {}
  }
  return count
}

import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type {
  EgressPolicy,
  EgressProxy,
  InternalRequestHandler,
} from '../../egress/egress-proxy.ts'
import { createEgressProxy } from '../../egress/egress-proxy.ts'
import type { DevboxLogger } from '../../logger.ts'
import {
  type BoxLimits,
  type CgroupSupport,
  defaultBoxLimits,
  detectCgroups,
} from './box-cgroup.ts'
import { type BoxSandbox, createBoxSandbox } from './box-sandbox.ts'

export type SandboxMode = 'auto' | 'off'

/** What is enforced on this machine, for the start-up log and the admin's pool tab. */
export type Enforcement = {
  filesystem: string
  network: string
  user: string
  pids: string
  memory: string
  cpu: string
  disk: string
}

export type Sandbox = {
  /** True when commands run under bubblewrap. */
  enabled: boolean
  enforcement: Enforcement
  limits: BoxLimits
  /** The confinement of one box: its namespace, cgroups, egress door and command line. */
  forBox: (input: {
    boxId: string
    workspacePath: string
    dataPath?: string
    /** The workspace is mounted read-only (a production server's deploy folder). */
    readOnlyWorkspace?: boolean
  }) => BoxSandbox
}

/** The tools a full sandbox is built from, found once at start. */
export type SandboxTools = {
  bubblewrapPath?: string
  /** `nsenter` and `setpriv`, usable only by root. */
  nsenterPath?: string
  setprivPath?: string
  cgroups?: CgroupSupport
  egress?: EgressProxy
  /** Holds the sockets of every box and the passwd file shown inside boxes. */
  runDirectory: string
  boxUser?: { uid: number; gid: number }
}

export type SandboxOptions = {
  mode: SandboxMode
  /** Paths app code must not see (the devbox root, DATA_DIR); the server user's home is added. */
  hiddenPaths: string[]
  logger: DevboxLogger
  limits?: Partial<BoxLimits>
  /** DEVBOX_EGRESS; `open` by default. */
  egress?: EgressPolicy
  registryUrl?: string
  /** Answers boxes' requests to `http://sprout.internal` (the error ingest). */
  internalRequests?: InternalRequestHandler
  /** The unprivileged uid/gid boxes run as when the server is root (DEVBOX_UID). */
  boxUid?: number
  /**
   * False keeps boxes at bubblewrap alone (the confinement before decision 012): only for
   * benchmarks comparing the two, never set from the environment.
   */
  fullConfinement?: boolean
}

const bubblewrapCandidates = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap']
export const defaultBoxUid = 61000

export function findBubblewrap(): string | undefined {
  return bubblewrapCandidates.find((candidate) => existsSync(candidate))
}

function findTool(name: string): string | undefined {
  return ['/usr/bin', '/bin', '/usr/sbin', '/sbin', '/usr/local/bin']
    .map((directory) => path.join(directory, name))
    .find((candidate) => existsSync(candidate))
}

/** Whether bubblewrap is installed and can actually create a sandbox here (containers may forbid it). */
export function bubblewrapWorks(bubblewrapPath: string): boolean {
  const probe = spawnSync(bubblewrapPath, [...baseMountArguments(), '--', 'true'], {
    stdio: 'ignore',
    timeout: 5000,
  })
  return probe.status === 0
}

export function baseMountArguments(): string[] {
  return ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc']
}

/**
 * Finds the strongest confinement this machine allows (docs/architecture/devbox.md, "Sandbox"):
 * bubblewrap for files; as root also a network namespace per box with the egress proxy as its
 * only way out, an unprivileged uid, and cgroups for processes, memory and CPU. Logs what is
 * enforced and what is not.
 */
export function createSandbox(options: SandboxOptions): Sandbox {
  const limits = { ...defaultBoxLimits, ...options.limits }
  const logger = options.logger
  const bubblewrapPath = options.mode === 'off' ? undefined : findBubblewrap()
  const bubblewrap =
    bubblewrapPath !== undefined && bubblewrapWorks(bubblewrapPath) ? bubblewrapPath : undefined
  const isRoot = process.getuid?.() === 0
  const runDirectory = path.join(
    os.tmpdir(),
    `sprout-run-${createHash('sha256').update(options.hiddenPaths.join('\0')).digest('hex').slice(0, 10)}`,
  )
  const tools: SandboxTools = { runDirectory }
  if (bubblewrap) {
    tools.bubblewrapPath = bubblewrap
    const nsenter = findTool('nsenter')
    const setpriv = findTool('setpriv')
    const full = options.fullConfinement !== false
    if (full && isRoot && nsenter && setpriv) {
      tools.nsenterPath = nsenter
      tools.setprivPath = setpriv
      const uid = options.boxUid ?? defaultBoxUid
      tools.boxUser = { uid, gid: uid }
      tools.egress = createEgressProxy({
        policy: options.egress ?? 'open',
        registryUrl: options.registryUrl ?? 'https://registry.npmjs.org/',
        logger,
        internal: options.internalRequests,
      })
    }
    if (full) tools.cgroups = detectCgroups()
    mkdirSync(runDirectory, { recursive: true, mode: 0o700 })
    if (tools.boxUser) writeAccountFiles(runDirectory, tools.boxUser)
  }

  const enforcement = describeEnforcement(tools, limits, options)
  if (!bubblewrap) {
    logger.warn(
      options.mode === 'off'
        ? 'Dev box sandbox is off (DEVBOX_SANDBOX=off): commands run as plain processes'
        : 'bubblewrap (bwrap) is not available: dev box commands run without a sandbox. Install bubblewrap to confine them.',
    )
  }
  logger.info('Dev box confinement', enforcement)
  // /home is hidden too: the workspace appears at /home/sprout/app (box-sandbox.ts).
  const hidden = bubblewrap
    ? hiddenMountPoints([...options.hiddenPaths, os.homedir(), '/home'])
    : []
  const mountArguments = [
    ...hidden.flatMap((hiddenPath) => ['--tmpfs', hiddenPath]),
    ...nodeMountArguments(hidden),
  ]
  return {
    enabled: bubblewrap !== undefined,
    enforcement,
    limits,
    forBox: ({ boxId, workspacePath, dataPath, readOnlyWorkspace }) =>
      createBoxSandbox({
        boxId,
        workspacePath,
        dataPath,
        readOnlyWorkspace,
        tools,
        limits,
        mountArguments,
        logger,
      }),
  }
}

function describeEnforcement(
  tools: SandboxTools,
  limits: BoxLimits,
  options: SandboxOptions,
): Enforcement {
  const notEnforced = (why: string) => `not enforced (${why})`
  const cgroups = tools.cgroups
  const cgroupFor = (controller: 'pids' | 'memory' | 'cpu') =>
    cgroups &&
    (cgroups.version === 1
      ? cgroups[controller] !== undefined
      : cgroups.controllers.has(controller))
      ? `cgroup v${cgroups.version}`
      : undefined
  const why = !tools.bubblewrapPath
    ? options.mode === 'off'
      ? 'DEVBOX_SANDBOX=off'
      : 'no bubblewrap'
    : 'needs root'
  const pids = cgroupFor('pids')
  const memory = cgroupFor('memory')
  const cpu = cgroupFor('cpu')
  return {
    filesystem: tools.bubblewrapPath ? 'bubblewrap: own workspace only' : notEnforced(why),
    network: tools.egress
      ? `own namespace; egress proxy, DEVBOX_EGRESS=${tools.egress.policy}`
      : notEnforced(why),
    user: tools.boxUser ? `uid ${tools.boxUser.uid}, no capabilities` : notEnforced(why),
    pids: pids
      ? `${limits.pids} (${pids})`
      : tools.bubblewrapPath
        ? `about ${limits.pids} (rlimit, counted per user)`
        : notEnforced(why),
    memory: memory ? `${limits.memoryMb} MB (${memory})` : notEnforced(`no cgroup; ${why}`),
    cpu: cpu ? `${limits.cpus} CPU (${cpu})` : notEnforced(`no cgroup; ${why}`),
    disk: `${limits.diskMb} MB (measured before each command and write, every second during commands)`,
  }
}

/** Boxes see a passwd with their own user and nothing of the host's accounts. */
function writeAccountFiles(runDirectory: string, user: { uid: number; gid: number }) {
  writeFileSync(
    path.join(runDirectory, 'passwd'),
    `root:x:0:0:root:/root:/usr/sbin/nologin\nsprout:x:${user.uid}:${user.gid}:Sprout app:/home/sprout:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n`,
  )
  writeFileSync(
    path.join(runDirectory, 'group'),
    `root:x:0:\nsprout:x:${user.gid}:\nnogroup:x:65534:\n`,
  )
}

/**
 * Node's install prefix (bin/ with node and npm, lib/) must stay visible even when it lies in a
 * hidden folder (nvm in the server user's home); hidden folders inside it are hidden again.
 */
function nodeMountArguments(hidden: string[]): string[] {
  const prefixes = [process.execPath, realpathSync(process.execPath)].map((executable) =>
    path.dirname(path.dirname(executable)),
  )
  const covered = ['/tmp', ...hidden]
  const mounts = [...new Set(prefixes)].filter((prefix) =>
    covered.some((hiddenPath) => isInside(prefix, hiddenPath)),
  )
  const hiddenAgain = hidden.filter((hiddenPath) =>
    mounts.some((prefix) => hiddenPath !== prefix && isInside(hiddenPath, prefix)),
  )
  return [
    ...mounts.flatMap((prefix) => ['--ro-bind', prefix, prefix]),
    ...hiddenAgain.flatMap((hiddenPath) => ['--tmpfs', hiddenPath]),
  ]
}

export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`
}

function hiddenMountPoints(paths: string[]): string[] {
  const candidates = paths
    .filter((candidate) => existsSync(candidate))
    .map((candidate) => realpathSync(candidate))
    // `/tmp` is already an empty tmpfs in the sandbox; hiding `/` would hide everything.
    .filter((candidate) => candidate !== '/' && !isInside(candidate, '/tmp'))
    .sort((first, second) => first.length - second.length)
  const result: string[] = []
  for (const candidate of candidates) {
    if (!result.some((parent) => isInside(candidate, parent))) result.push(candidate)
  }
  return result
}

/** True when `child` is `parent` or below it. */
export function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child)
  return (
    relative === '' ||
    (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
  )
}

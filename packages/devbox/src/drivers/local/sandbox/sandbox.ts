// Long file: one place finds the confinement this machine allows, at start or checked ahead
// in the background, and describes it for the start-up log and the admin's pool tab.
import { execFile, spawnSync } from 'node:child_process'
import { existsSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import type { EgressPolicy, InternalRequestHandler } from '../../../egress/egress-proxy.ts'
import { createEgressProxy } from '../../../egress/egress-proxy.ts'
import { findSystemTool } from '../../../find-system-tool.ts'
import type { DevboxLogger } from '../../../logger.ts'
import { checkedOnce, rememberCheck } from '../machine-checks.ts'
import {
  type BoxLimits,
  type CgroupSupport,
  defaultBoxLimits,
  detectCgroups,
  sweepOrphanedRunCgroups,
} from './box-cgroup.ts'
import {
  probeMountArguments,
  serverToolchain,
  stageEtc,
  stageEtcInBackground,
  systemMountArguments,
} from './box-root.ts'
import { type BoxSandbox, createBoxSandbox } from './box-sandbox.ts'
import { boxUidCount, createBoxUids } from './box-uids.ts'
import { prepareRunDirectory, runDirectoryOf } from './run-directory.ts'
import type { SandboxTools } from './sandbox-tools.ts'
import { buildSeccompFilter, refusedSyscalls, seccompSupported } from './seccomp-filter.ts'
import { shellQuote } from './shell-quote.ts'

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
  /** The seccomp filter and nested user namespaces. */
  syscalls: string
  /** The Node that box processes run, checked against the server's own at start. */
  node: string
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
    /** Whose uid the box runs as (a production server's app: `app:{id}`); its id by default. */
    uidKey?: string
  }) => BoxSandbox
  /** Gives a destroyed box's uid back to the range. */
  forgetBox: (uidKey: string) => void
}

export type SandboxOptions = {
  mode: SandboxMode
  /** The driver's own folder: names this server's run folder, apart from other servers'. */
  stateDirectory: string
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
  /** What limits the disk, from the driver's disks (box-disk.ts); measured when not given. */
  diskEnforcement?: string
}

const runFile = promisify(execFile)
const bubblewrapCandidates = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap']
export const defaultBoxUid = 61000

export function findBubblewrap(): string | undefined {
  return bubblewrapCandidates.find((candidate) => existsSync(candidate))
}

/**
 * Whether bubblewrap is installed and can actually create a sandbox here (containers may forbid
 * it). Tried once per process; takes the answer `checkSandbox` found, if it ran.
 */
export function bubblewrapWorks(bubblewrapPath: string): boolean {
  return checkedOnce(`bubblewrap:${bubblewrapPath}`, () => {
    const probe = spawnSync(bubblewrapPath, bubblewrapProbeArguments(), {
      stdio: 'ignore',
      timeout: 5000,
    })
    return probe.status === 0
  })
}

// The probe runs while the server starts: a stop then must not leave it behind.
const bubblewrapProbeArguments = () => [
  ...probeMountArguments(),
  '--die-with-parent',
  '--',
  '/usr/bin/true',
]

/**
 * createSandbox's slow checks (bubblewrap works, the staged /etc) without blocking, run while the
 * server opens its database; the sandbox made afterwards takes the answers and does what is left
 * (docs/architecture/devbox.md "Sandbox").
 */
export async function checkSandbox(input: {
  stateDirectory: string
  boxUid?: number
}): Promise<void> {
  const bubblewrapPath = findBubblewrap()
  if (!bubblewrapPath) return
  const works = await runFile(bubblewrapPath, bubblewrapProbeArguments(), { timeout: 5000 }).then(
    () => true,
    () => false,
  )
  rememberCheck(`bubblewrap:${bubblewrapPath}`, works)
  if (!works) return
  // The user createSandbox gives boxes with full confinement (its `boxUser`).
  const isRoot = process.getuid?.() === 0
  const uid = input.boxUid ?? defaultBoxUid
  const user =
    isRoot && findSystemTool('nsenter') && findSystemTool('setpriv')
      ? { uid, gid: uid }
      : serverUser()
  const runDirectory = prepareRunDirectory(input.stateDirectory)
  await stageEtcInBackground(runDirectory, user)
}

/**
 * The strongest confinement this machine allows (docs/architecture/devbox.md "Sandbox"):
 * bubblewrap; as root also a network namespace with the egress proxy as only way out, an
 * unprivileged uid, and cgroups. Logs what is and is not enforced.
 */
export function createSandbox(options: SandboxOptions): Sandbox {
  const limits = { ...defaultBoxLimits, ...options.limits }
  const logger = options.logger
  const bubblewrapPath = options.mode === 'off' ? undefined : findBubblewrap()
  const bubblewrap =
    bubblewrapPath !== undefined && bubblewrapWorks(bubblewrapPath) ? bubblewrapPath : undefined
  const isRoot = process.getuid?.() === 0
  const runDirectory = runDirectoryOf(options.stateDirectory)
  const toolchain = serverToolchain()
  const tools: SandboxTools = {
    runDirectory,
    rootArguments: [],
    toolchain,
    unprivileged: !isRoot,
  }
  if (bubblewrap) {
    tools.bubblewrapPath = bubblewrap
    const nsenter = findSystemTool('nsenter')
    const setpriv = findSystemTool('setpriv')
    const full = options.fullConfinement !== false
    if (full && isRoot && nsenter && setpriv) {
      tools.nsenterPath = nsenter
      tools.setprivPath = setpriv
      const uid = options.boxUid ?? defaultBoxUid
      tools.boxUser = { uid, gid: uid }
      tools.boxUids = createBoxUids({
        file: path.join(options.stateDirectory, 'box-uids.json'),
        first: uid,
        onFull: (key) => logger.warn(uidsFullMessage(uid, key)),
      })
      tools.egress = createEgressProxy({
        policy: options.egress ?? 'open',
        registryUrl: options.registryUrl ?? 'https://registry.npmjs.org/',
        logger,
        internal: options.internalRequests,
      })
    }
    if (full) tools.cgroups = detectCgroups()
    prepareRunDirectory(options.stateDirectory)
    const etcFolder = stageEtc(runDirectory, tools.boxUser ?? serverUser())
    if (seccompSupported()) {
      tools.seccompPath = path.join(runDirectory, 'seccomp.bpf')
      // Written aside and renamed: a box of another sandbox may be opening it right now.
      const staging = `${tools.seccompPath}.${process.pid}`
      writeFileSync(staging, buildSeccompFilter(), { mode: 0o600 })
      renameSync(staging, tools.seccompPath)
    }
    tools.rootArguments = systemMountArguments({
      etcFolder,
      toolchain,
      memoryMb: limits.memoryMb,
    })
  }

  if (!bubblewrap) tools.cgroups = unconfinedCgroups(options, isRoot)
  if (tools.cgroups) sweepEarlierCommands(tools.cgroups, logger)

  const enforcement = describeEnforcement(tools, limits, options)
  enforcement.node = checkBoxNode(tools)
  logger.info('Dev box confinement', enforcement)
  if (enforcement.node.startsWith('MISMATCH')) {
    logger.error(
      `Dev boxes do not run the server's Node: ${enforcement.node}. Apps that need it (node:sqlite) will fail; make the toolchain's folder readable, or report this as a bug.`,
    )
  }
  return {
    enabled: bubblewrap !== undefined,
    enforcement,
    limits,
    forBox: ({ boxId, workspacePath, dataPath, readOnlyWorkspace, uidKey }) => {
      const uid = tools.boxUids?.uidOf(uidKey ?? boxId)
      return createBoxSandbox({
        boxId,
        workspacePath,
        dataPath,
        readOnlyWorkspace,
        tools,
        user: uid === undefined ? undefined : { uid, gid: uid },
        limits,
        logger,
      })
    },
    forgetBox: (uidKey) => tools.boxUids?.release(uidKey),
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
    filesystem: tools.bubblewrapPath
      ? 'bubblewrap: system files read-only, own workspace and data, private /tmp; nothing else of the host'
      : notEnforced(why),
    network: tools.egress
      ? `own namespace; egress proxy, DEVBOX_EGRESS=${tools.egress.policy}`
      : notEnforced(why),
    user: tools.boxUids
      ? `a uid of its own per box (${tools.boxUids.first}–${tools.boxUids.last}), no capabilities`
      : notEnforced(why),
    pids: pids
      ? `${limits.pids} (${pids})`
      : tools.bubblewrapPath
        ? `about ${limits.pids} (rlimit, counted per user)`
        : notEnforced(why),
    memory: memory ? `${limits.memoryMb} MB (${memory})` : notEnforced(`no cgroup; ${why}`),
    cpu: cpu ? `${limits.cpus} CPU (${cpu})` : notEnforced(`no cgroup; ${why}`),
    disk:
      options.diskEnforcement ??
      `${limits.diskMb} MB (measured before each command and write, every second during commands)`,
    syscalls: !tools.bubblewrapPath
      ? notEnforced(why)
      : tools.seccompPath
        ? `seccomp filter (${refusedSyscalls.length} calls refused, no new namespaces)`
        : notEnforced(`no seccomp filter for ${process.arch}`),
    node: 'not checked',
  }
}

/**
 * The cgroups that track an unsandboxed box's commands (decision 030). As root there must be
 * some: a command's leftovers would otherwise run on as root, out of reach of the server.
 */
function unconfinedCgroups(
  { mode, logger }: SandboxOptions,
  isRoot: boolean,
): CgroupSupport | undefined {
  const cgroups = detectCgroups()
  if (!cgroups && isRoot) {
    throw new Error(
      `Dev box commands would run as root without a sandbox (${mode === 'off' ? 'DEVBOX_SANDBOX=off' : 'no working bubblewrap'}) and without writable cgroups (/sys/fs/cgroup) to end what they leave behind, so Sprout will not start them. Install bubblewrap, run Sprout as another user, or give it a writable cgroup file system.`,
    )
  }
  const processes = cgroups
    ? 'each command runs in a cgroup of its own, and whatever it starts (setsid and double forks included) is killed when it ends, when its box stops and when the server goes. Not enforced: files, network, user, system calls'
    : 'background processes that leave their process group (setsid) can outlive a command. Not enforced: files, network, user, system calls, limits'
  logger.warn(
    mode === 'off'
      ? `Dev box sandbox is off (DEVBOX_SANDBOX=off): commands run as plain processes with the server's rights; ${processes}`
      : `bubblewrap (bwrap) is not available: dev box commands run without a sandbox; ${processes}. Install bubblewrap to confine them.`,
  )
  return cgroups
}

/** Kills what commands of an earlier server left in cgroups whose keeper is gone (decision 030). */
function sweepEarlierCommands(cgroups: CgroupSupport, logger: DevboxLogger) {
  void sweepOrphanedRunCgroups(cgroups).then(
    (swept) => {
      if (swept > 0) logger.warn(`Killed what ${swept} earlier commands' cgroups still held`)
    },
    (error: Error) => logger.warn(`Could not sweep earlier commands' cgroups: ${error.message}`),
  )
}

const uidsFullMessage = (first: number, key: string) =>
  `All ${boxUidCount} box uids from DEVBOX_UID (${first}) are taken: ${key} shares one with another box, and their per-user kernel limits`

function serverUser() {
  return { uid: process.getuid?.() ?? 1000, gid: process.getgid?.() ?? 1000 }
}

/**
 * Runs `node --version` the way a box does and compares it with the server's own: a box that
 * runs another Node (the system's) breaks apps that need the pinned one (node:sqlite).
 */
function checkBoxNode(tools: SandboxTools): string {
  const expected = process.version
  const { bubblewrapPath } = tools
  if (!bubblewrapPath) return `${expected} (the server's own; no sandbox)`
  const key = `box-node:${bubblewrapPath}:${tools.toolchain.hostPrefix}:${tools.unprivileged}`
  return checkedOnce(key, () => runBoxNode(tools, bubblewrapPath, expected))
}

/** `node --version` in a sandbox as boxes get it: the toolchain's Node, or why not. */
function runBoxNode(tools: SandboxTools, bubblewrapPath: string, expected: string): string {
  const probe = spawnSync(
    bubblewrapPath,
    [
      ...tools.rootArguments,
      '--unshare-pid',
      ...(tools.unprivileged ? ['--unshare-user'] : []),
      '--die-with-parent',
      '--',
      '/bin/sh',
      '-c',
      `PATH=${shellQuote(`${tools.toolchain.binInside}:/usr/bin:/bin`)} exec node --version`,
    ],
    { encoding: 'utf8', timeout: 10_000 },
  )
  const found = probe.stdout?.trim() ?? ''
  if (found === expected) return `${expected} (the server's own)`
  return `MISMATCH: boxes run ${found || `no node (${probe.stderr?.trim() || 'not found'})`}, the server ${expected} from ${tools.toolchain.hostPrefix}`
}

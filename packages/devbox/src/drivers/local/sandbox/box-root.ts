import { execFile } from 'node:child_process'
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { isInside } from '../../../is-inside.ts'

const runFile = promisify(execFile)

/**
 * A box's file system, built from an allow-list, never the host's root
 * (docs/architecture/devbox.md "Sandbox", decision 021): no host socket, checkout, DATA_DIR or home
 * folder is there to open.
 */

/** Where Sprout's own Node toolchain appears in every box, wherever Sprout is installed. */
export const toolchainInside = '/opt/sprout/node'
/** Top-level links or folders of a merged-/usr system, taken as the host has them. */
const systemTops = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']
/**
 * Host /etc entries programs read to run (certificates, linker cache, Debian's alternatives
 * links, time zone, protocol names); passwd, group and hosts are generated instead.
 */
const etcEntries = [
  'alternatives',
  'bash.bashrc',
  'ca-certificates',
  'ca-certificates.conf',
  'debian_version',
  'inputrc',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'localtime',
  'mime.types',
  'nsswitch.conf',
  'os-release',
  'profile',
  'protocols',
  'services',
  'ssl',
  'timezone',
]
const tmpBytesCap = 256 * 1024 * 1024
const smallTmpfsBytes = 16 * 1024 * 1024

export type Toolchain = {
  /** The host folder holding the server's Node (bin/node, and npm where it ships with it). */
  hostPrefix: string
  /** The folder of `node` as box processes see it: first on their PATH. */
  binInside: string
  /** Mounts that make it visible (none when it already lies in /usr). */
  mountArguments: string[]
}

/** The server's own Node, made visible in boxes at a path that names nothing of the host. */
export function serverToolchain(executablePath: string = process.execPath): Toolchain {
  const realExecutable = realpathSync(executablePath)
  const hostPrefix = path.dirname(path.dirname(realExecutable))
  const binName = path.basename(path.dirname(realExecutable))
  if (hostPrefix === '/usr' || isInside(hostPrefix, '/usr')) {
    return { hostPrefix, binInside: path.dirname(realExecutable), mountArguments: [] }
  }
  return {
    hostPrefix,
    binInside: path.posix.join(toolchainInside, binName),
    mountArguments: [
      '--perms',
      '0755',
      '--dir',
      '/opt/sprout',
      '--ro-bind',
      hostPrefix,
      toolchainInside,
    ],
  }
}

const stagedEtcFolders = new Map<string, string>()
const stagedEtcKey = (runDirectory: string, user: { uid: number; gid: number }) =>
  `${runDirectory}:${user.uid}:${user.gid}`

/**
 * The boxes' /etc, staged once per server: allow-listed host entries (links kept) plus generated
 * passwd, group and hosts. One bind costs a third of a bind per entry
 * (docs/performance.md "allow-listed root"). Reuses `stageEtcInBackground`'s copy if it ran.
 */
export function stageEtc(runDirectory: string, user: { uid: number; gid: number }): string {
  const key = stagedEtcKey(runDirectory, user)
  const staged = stagedEtcFolders.get(key)
  if (staged && existsSync(staged)) return staged
  const folder = newEtcFolder(runDirectory)
  rmSync(folder, { recursive: true, force: true })
  mkdirSync(folder, { recursive: true, mode: 0o755 })
  for (const hostPath of hostEtcEntries()) {
    try {
      cpSync(hostPath, path.join(folder, path.basename(hostPath)), {
        recursive: true,
        verbatimSymlinks: true,
      })
    } catch {
      // An entry the server may not read (or that vanished) is left out: programs use defaults.
    }
  }
  writeGeneratedEtc(folder, user)
  stagedEtcFolders.set(key, folder)
  return folder
}

/**
 * stageEtc's copy (30–500 ms) in a `cp -RP` process of its own while the server opens its database
 * (docs/architecture/devbox.md "Sandbox"). An entry `cp` cannot read is left out as stageEtc would;
 * without `cp`, stageEtc stages it later.
 */
export async function stageEtcInBackground(
  runDirectory: string,
  user: { uid: number; gid: number },
): Promise<void> {
  const key = stagedEtcKey(runDirectory, user)
  const staged = stagedEtcFolders.get(key)
  if (staged && existsSync(staged)) return
  const folder = newEtcFolder(runDirectory)
  await rm(folder, { recursive: true, force: true })
  await mkdir(folder, { recursive: true, mode: 0o755 })
  const copied = await runFile('cp', ['-RP', ...hostEtcEntries(), folder]).then(
    () => true,
    (error: { code?: unknown }) => typeof error.code === 'number',
  )
  if (!copied) return
  writeGeneratedEtc(folder, user)
  stagedEtcFolders.set(key, folder)
}

/** A fresh folder name for this server's staged /etc; earlier servers' are removed first. */
function newEtcFolder(runDirectory: string): string {
  removeStaleEtcFolders(runDirectory)
  return path.join(runDirectory, `etc-${process.pid}-${stagedEtcFolders.size}`)
}

/** The allow-listed host /etc entries present here. */
function hostEtcEntries(): string[] {
  return etcEntries
    .map((name) => path.posix.join('/etc', name))
    .filter((hostPath) => existsSync(hostPath) || isLink(hostPath))
}

function writeGeneratedEtc(folder: string, user: { uid: number; gid: number }) {
  writeFileSync(
    path.join(folder, 'passwd'),
    `root:x:0:0:root:/root:/usr/sbin/nologin\nsprout:x:${user.uid}:${user.gid}:Sprout app:/home/sprout:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n`,
    { mode: 0o644 },
  )
  writeFileSync(
    path.join(folder, 'group'),
    `root:x:0:\nsprout:x:${user.gid}:\nnogroup:x:65534:\n`,
    { mode: 0o644 },
  )
  writeFileSync(
    path.join(folder, 'hosts'),
    '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n127.0.1.1\tsprout-box\n',
    { mode: 0o644 },
  )
}

/** Staged /etc folders of servers that are gone (a crash, an earlier run). */
function removeStaleEtcFolders(runDirectory: string) {
  let names: string[] = []
  try {
    names = readdirSync(runDirectory)
  } catch {
    return
  }
  for (const name of names) {
    const owner = /^etc-(\d+)-\d+$/.exec(name)?.[1]
    if (owner === undefined || Number(owner) === process.pid || isAlive(Number(owner))) continue
    rmSync(path.join(runDirectory, name), { recursive: true, force: true })
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function isLink(hostPath: string): boolean {
  try {
    return lstatSync(hostPath).isSymbolicLink()
  } catch {
    return false
  }
}

/** bubblewrap arguments for the system part of the root: the same for every box. */
export function systemMountArguments(input: {
  etcFolder: string
  toolchain: Toolchain
  memoryMb: number
}): string[] {
  const argumentsList = ['--ro-bind', '/usr', '/usr']
  for (const top of systemTops) argumentsList.push(...mirrorEntry(top))
  argumentsList.push('--ro-bind', input.etcFolder, '/etc')
  const tmpBytes = String(Math.min(tmpBytesCap, input.memoryMb * 1024 * 1024))
  argumentsList.push(
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--perms',
    '01777',
    '--size',
    tmpBytes,
    '--tmpfs',
    '/tmp',
    '--perms',
    '0755',
    '--size',
    String(smallTmpfsBytes),
    '--tmpfs',
    '/run',
    '--perms',
    '0755',
    '--size',
    String(smallTmpfsBytes),
    '--tmpfs',
    '/var',
    '--perms',
    '01777',
    '--dir',
    '/var/tmp',
    '--perms',
    '0755',
    '--dir',
    '/opt',
    ...input.toolchain.mountArguments,
    '--perms',
    '0755',
    '--dir',
    '/home',
    '--perms',
    '0755',
    '--dir',
    '/home/sprout',
  )
  return argumentsList
}

/** The smallest root that runs /usr/bin/true: to probe whether bubblewrap works here. */
export function probeMountArguments(): string[] {
  return [
    '--ro-bind',
    '/usr',
    '/usr',
    ...systemTops.flatMap(mirrorEntry),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--unshare-pid',
  ]
}

/** A host path as the host has it: a link stays a link, a file or folder is bound read-only. */
function mirrorEntry(hostPath: string): string[] {
  try {
    const stats = lstatSync(hostPath)
    if (stats.isSymbolicLink()) return ['--symlink', readlinkSync(hostPath), hostPath]
    return existsSync(hostPath) ? ['--ro-bind', hostPath, hostPath] : []
  } catch {
    return []
  }
}

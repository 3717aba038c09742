import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs'
import { readdir, readFile, rmdir } from 'node:fs/promises'
import path from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'

export type BoxLimits = {
  /** Processes and threads of the box at once (DEVBOX_PIDS). */
  pids: number
  /** Memory of the box in MiB (DEVBOX_MEMORY_MB). */
  memoryMb: number
  /** CPUs the box may use at once, e.g. 1 or 0.5 (DEVBOX_CPUS). */
  cpus: number
  /** Size of the workspace in MiB (DEVBOX_DISK_MB). */
  diskMb: number
}

export const defaultBoxLimits: BoxLimits = { pids: 256, memoryMb: 1024, cpus: 1, diskMb: 2048 }

/** Where per-box cgroups can be made: the v1 controllers' roots, or the v2 root. */
export type CgroupSupport =
  | { version: 1; pids?: string; memory?: string; cpu?: string }
  | { version: 2; root: string; controllers: Set<'pids' | 'memory' | 'cpu'> }

const cgroupRoot = '/sys/fs/cgroup'
const parentName = 'sprout'

function canMakeChild(directory: string): boolean {
  const probe = path.join(directory, parentName, `probe-${process.pid}`)
  try {
    mkdirSync(probe, { recursive: true })
    rmdirSync(probe)
    return true
  } catch {
    return false
  }
}

/** Which cgroup controllers this server may use; undefined when none (not root, or no cgroupfs). */
export function detectCgroups(): CgroupSupport | undefined {
  if (existsSync(path.join(cgroupRoot, 'cgroup.controllers'))) {
    const available = readFileSync(path.join(cgroupRoot, 'cgroup.controllers'), 'utf8')
    const controllers = new Set(
      (['pids', 'memory', 'cpu'] as const).filter((name) => available.split(/\s+/).includes(name)),
    )
    if (!canMakeChild(cgroupRoot)) return undefined
    try {
      const enable = [...controllers].map((name) => `+${name}`).join(' ')
      writeFileSync(path.join(cgroupRoot, 'cgroup.subtree_control'), enable)
      writeFileSync(path.join(cgroupRoot, parentName, 'cgroup.subtree_control'), enable)
    } catch {
      return undefined
    }
    return { version: 2, root: path.join(cgroupRoot, parentName), controllers }
  }
  const usable = (name: string) => {
    const directory = path.join(cgroupRoot, name)
    return existsSync(path.join(directory, 'cgroup.procs')) && canMakeChild(directory)
      ? path.join(directory, parentName)
      : undefined
  }
  const support = {
    version: 1 as const,
    pids: usable('pids'),
    memory: usable('memory'),
    cpu: usable('cpu'),
  }
  return support.pids || support.memory || support.cpu ? support : undefined
}

export type BoxCgroup = {
  /** The box's cgroup folders, one per controller (v1) or one (v2). */
  directories: string[]
  /** `cgroup.procs` files a process writes its pid to, to join the box's cgroups. */
  procsFiles: string[]
  /** Kills every process in the box's cgroups, however it was started. */
  killAll: () => Promise<void>
  /** Kills what is left and removes the cgroups. */
  remove: () => Promise<void>
  /** Whether its folders are all still there (something outside may have removed them). */
  present: () => boolean
}

const cpuPeriodMicroseconds = 100_000

/** Makes (or reuses) the cgroups of one box and writes its limits into them. */
export function createBoxCgroup(
  support: CgroupSupport,
  boxId: string,
  limits: BoxLimits,
): BoxCgroup {
  const memoryBytes = String(limits.memoryMb * 1024 * 1024)
  const quota = String(Math.max(1000, Math.round(limits.cpus * cpuPeriodMicroseconds)))
  const directories: string[] = []
  const write = (directory: string, file: string, value: string) => {
    const target = path.join(directory, file)
    if (existsSync(target)) writeFileSync(target, value)
  }
  if (support.version === 1) {
    if (support.pids) {
      const directory = path.join(support.pids, boxId)
      mkdirSync(directory, { recursive: true })
      write(directory, 'pids.max', String(limits.pids))
      directories.push(directory)
    }
    if (support.memory) {
      const directory = path.join(support.memory, boxId)
      mkdirSync(directory, { recursive: true })
      // Swap counts too, where the kernel accounts for it. The plain limit may never exceed the
      // one with swap: a reused cgroup whose limits rise takes the swap limit first.
      try {
        write(directory, 'memory.limit_in_bytes', memoryBytes)
      } catch {
        write(directory, 'memory.memsw.limit_in_bytes', memoryBytes)
        write(directory, 'memory.limit_in_bytes', memoryBytes)
      }
      write(directory, 'memory.memsw.limit_in_bytes', memoryBytes)
      directories.push(directory)
    }
    if (support.cpu) {
      const directory = path.join(support.cpu, boxId)
      mkdirSync(directory, { recursive: true })
      write(directory, 'cpu.cfs_period_us', String(cpuPeriodMicroseconds))
      write(directory, 'cpu.cfs_quota_us', quota)
      directories.push(directory)
    }
  } else {
    const directory = path.join(support.root, boxId)
    mkdirSync(directory, { recursive: true })
    if (support.controllers.has('pids')) write(directory, 'pids.max', String(limits.pids))
    if (support.controllers.has('memory')) {
      write(directory, 'memory.max', memoryBytes)
      write(directory, 'memory.swap.max', '0')
    }
    if (support.controllers.has('cpu'))
      write(directory, 'cpu.max', `${quota} ${cpuPeriodMicroseconds}`)
    directories.push(directory)
  }

  const killAll = () => killCgroups(directories)

  return {
    directories,
    procsFiles: directories.map((directory) => path.join(directory, 'cgroup.procs')),
    present: () => directories.every((directory) => existsSync(directory)),
    killAll,
    remove: async () => {
      await killAll()
      // A command's keeper removes its own cgroup as its command dies: wait for it a little.
      const deadline = Date.now() + 2000
      for (let left = directories; left.length > 0 && Date.now() < deadline; ) {
        for (const directory of left) {
          for (const run of await runCgroupsOf(directory)) await rmdir(run).catch(() => undefined)
          await rmdir(directory).catch(() => undefined)
        }
        left = directories.filter((directory) => existsSync(directory))
        if (left.length > 0) await delay(20)
      }
    },
  }
}

/** The cgroups box-keeper.mjs makes under a box's for each unsandboxed command, `run-{pid}`. */
async function runCgroupsOf(directory: string): Promise<string[]> {
  const names = await readdir(directory).catch(() => [] as string[])
  return names.filter((name) => /^run-\d+$/.test(name)).map((name) => path.join(directory, name))
}

/** Kills every process in `directories` and their commands' cgroups, until none is left. */
async function killCgroups(directories: string[]): Promise<void> {
  const processIds = async () => {
    const ids = new Set<number>()
    for (const directory of directories) {
      for (const cgroup of [directory, ...(await runCgroupsOf(directory))]) {
        const text = await readFile(path.join(cgroup, 'cgroup.procs'), 'utf8').catch(() => '')
        for (const line of text.split('\n')) if (line) ids.add(Number(line))
      }
    }
    return ids
  }
  const deadline = Date.now() + 5000
  for (;;) {
    const ids = await processIds()
    if (ids.size === 0 || Date.now() > deadline) return
    for (const id of ids) {
      try {
        process.kill(id, 'SIGKILL')
      } catch {}
    }
    await delay(20)
  }
}

/**
 * Kills and removes the commands' cgroups whose box-keeper is gone (killed itself, so it could
 * not end them; decision 030): what is left of a server killed before, or of any server sharing
 * this machine's `sprout` cgroups. A command whose keeper runs is never touched. Returns how many.
 */
export async function sweepOrphanedRunCgroups(support: CgroupSupport): Promise<number> {
  const parents =
    support.version === 1
      ? [support.pids, support.memory, support.cpu].filter((parent) => parent !== undefined)
      : [support.root]
  let swept = 0
  for (const parent of parents) {
    for (const box of await readdir(parent).catch(() => [] as string[])) {
      for (const run of await runCgroupsOf(path.join(parent, box))) {
        if (keeperRuns(Number(path.basename(run).slice('run-'.length)))) continue
        await killCgroups([run])
        await rmdir(run).then(
          () => {
            swept += 1
          },
          () => undefined,
        )
      }
    }
  }
  return swept
}

function keeperRuns(processId: number): boolean {
  try {
    return readFileSync(`/proc/${processId}/cmdline`, 'utf8').includes('box-keeper.mjs')
  } catch {
    return false
  }
}

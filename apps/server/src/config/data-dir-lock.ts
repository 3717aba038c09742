import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'

const lockFileName = 'sprout.pid'

export class DataDirInUseError extends Error {
  constructor(dataDir: string, processId: number) {
    super(
      `Another Sprout (pid ${processId}) is using DATA_DIR ${dataDir}. Stop it first, or give this one a DATA_DIR of its own.`,
    )
    this.name = 'DataDirInUseError'
  }
}

function isRunning(processId: number): boolean {
  try {
    process.kill(processId, 0)
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
  // A pid the machine gave to something else since a crash is not a Sprout.
  try {
    return readFileSync(`/proc/${processId}/cmdline`, 'utf8').includes('node')
  } catch {
    return true
  }
}

function readHolder(lockFile: string): number | undefined {
  try {
    const processId = Number(readFileSync(lockFile, 'utf8').trim())
    return Number.isInteger(processId) && processId > 0 ? processId : undefined
  } catch {
    return undefined
  }
}

/**
 * One Sprout per DATA_DIR (docs/architecture/overview.md "Data"): a second server would open the
 * same PGlite files, cgroups and disk images. Waits `waitMs` for a stopping server, takes over a
 * dead one's `sprout.pid`, refuses beside a live one. Returns the release, also run at exit.
 */
export async function lockDataDir(
  dataDir: string,
  options: { waitMs: number; onWait?: (processId: number) => void },
): Promise<() => void> {
  mkdirSync(dataDir, { recursive: true })
  const lockFile = path.join(dataDir, lockFileName)
  const deadline = Date.now() + options.waitMs
  let waited = false
  let sawUnreadable = false
  for (;;) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: 'wx', mode: 0o644 })
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const holder = readHolder(lockFile)
    if (holder === undefined && !sawUnreadable) {
      // Perhaps a Sprout starting this moment, between creating the file and writing to it.
      sawUnreadable = true
      await delay(100)
      continue
    }
    if (holder === undefined || holder === process.pid || !isRunning(holder)) {
      // Left by a Sprout that is gone: take it over.
      try {
        unlinkSync(lockFile)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      }
      continue
    }
    if (Date.now() > deadline) throw new DataDirInUseError(dataDir, holder)
    if (!waited) options.onWait?.(holder)
    waited = true
    await delay(100)
  }
  const release = () => {
    if (readHolder(lockFile) === process.pid) unlinkSync(lockFile)
    process.removeListener('exit', release)
  }
  process.on('exit', release)
  return release
}

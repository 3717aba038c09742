import { createHash } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const prefix = 'sprout-run-'
const ownerFile = 'state-directory'
/** A run directory younger than this may belong to a server still creating its folders. */
const graceMs = 10 * 60_000

/**
 * Holds a server's box sockets and staged /etc, named after its driver's folder so a restart
 * finds it again (docs/architecture/devbox.md "Sandbox"); it records that folder, so the run
 * directories of servers whose DATA_DIR is gone can be told apart and removed.
 */
export function runDirectoryOf(stateDirectory: string): string {
  return path.join(
    os.tmpdir(),
    `${prefix}${createHash('sha256').update(stateDirectory).digest('hex').slice(0, 10)}`,
  )
}

/** The run directories this process has swept for: the machine check and the driver both prepare. */
const swept = new Set<string>()

/** Makes the run directory, records its driver folder, and sweeps the orphaned ones once. */
export function prepareRunDirectory(stateDirectory: string): string {
  const runDirectory = runDirectoryOf(stateDirectory)
  mkdirSync(runDirectory, { recursive: true, mode: 0o700 })
  writeFileSync(path.join(runDirectory, ownerFile), stateDirectory, { mode: 0o600 })
  if (!swept.has(runDirectory)) removeOrphanedRunDirectories(runDirectory)
  swept.add(runDirectory)
  return runDirectory
}

/** Removes other run directories whose recorded driver folder no longer exists. */
function removeOrphanedRunDirectories(own: string, now = Date.now()) {
  const temporary = os.tmpdir()
  for (const name of readdirSync(temporary)) {
    const candidate = path.join(temporary, name)
    if (!name.startsWith(prefix) || candidate === own) continue
    try {
      const recorded = readFileSync(path.join(candidate, ownerFile), 'utf8')
      if (existsSync(recorded) || now - statSync(candidate).mtimeMs < graceMs) continue
      rmSync(candidate, { recursive: true, force: true })
    } catch {
      // Not ours to judge (no record, another user's, or removed meanwhile): left as it is.
    }
  }
}

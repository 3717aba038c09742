import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { prepareRunDirectory, runDirectoryOf } from './run-directory.ts'

const made: string[] = []
afterEach(() => {
  for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true })
})

/** A run directory as an earlier server left it, its mtime `ageMs` in the past. */
function leftRunDirectory(stateDirectory: string, ageMs: number): string {
  const runDirectory = runDirectoryOf(stateDirectory)
  mkdirSync(path.join(runDirectory, 'box'), { recursive: true })
  writeFileSync(path.join(runDirectory, 'state-directory'), stateDirectory)
  const then = new Date(Date.now() - ageMs)
  utimesSync(runDirectory, then, then)
  made.push(runDirectory)
  return runDirectory
}

describe('run directories', () => {
  it("remove an old one whose driver folder is gone, keep a live or young one's", () => {
    const live = mkdtempSync(path.join(os.tmpdir(), 'sprout-run-test-live-'))
    made.push(live)
    const gone = path.join(os.tmpdir(), `sprout-run-test-gone-${process.pid}`)
    const justGone = `${gone}-young`
    const orphaned = leftRunDirectory(gone, 3_600_000)
    const young = leftRunDirectory(justGone, 1_000)
    const kept = leftRunDirectory(live, 3_600_000)
    const unrecorded = runDirectoryOf(`${gone}-unrecorded`)
    mkdirSync(unrecorded, { recursive: true })
    made.push(unrecorded)

    const own = prepareRunDirectory(path.join(live, 'devboxes'))
    made.push(own)

    expect(existsSync(orphaned)).toBe(false)
    expect(existsSync(young)).toBe(true)
    expect(existsSync(kept)).toBe(true)
    expect(existsSync(unrecorded)).toBe(true)
    expect(existsSync(path.join(own, 'state-directory'))).toBe(true)
  })
})

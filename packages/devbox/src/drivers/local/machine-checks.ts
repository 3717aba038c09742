import { statSync } from 'node:fs'
import path from 'node:path'

/**
 * Answers of the machine's checks (a disk image, an overlay and bubblewrap tried for real), kept
 * for the life of the process: they describe the machine and the filesystem a folder is on, not
 * the folder. A server makes one driver and checks once either way; a test process makes a driver
 * per suite and paid 1–2 s of probes each time (docs/performance.md "2026-12-02 · session 15").
 */
const answers = new Map<string, unknown>()

/** The filesystem `folder` is on, named by its device: the folder itself may not exist yet. */
function filesystemOf(folder: string): number | undefined {
  let current = path.resolve(folder)
  for (;;) {
    try {
      return statSync(current).dev
    } catch {
      const parent = path.dirname(current)
      if (parent === current) return undefined
      current = parent
    }
  }
}

/** The key of a check of `name` (its mode included) on the filesystem of `folder`. */
export function checkOnFilesystem(name: string, folder: string): string | undefined {
  const device = filesystemOf(folder)
  return device === undefined ? undefined : `${name}:${device}`
}

/** `check()`'s answer, found once per key; an undefined key checks every time. */
export function checkedOnce<T>(key: string | undefined, check: () => T): T {
  if (key === undefined) return check()
  if (answers.has(key)) return answers.get(key) as T
  const answer = check()
  answers.set(key, answer)
  return answer
}

/** Keeps an answer found by a check in the background, for the next `checkedOnce` of its key. */
export function rememberCheck(key: string | undefined, answer: unknown) {
  if (key !== undefined) answers.set(key, answer)
}

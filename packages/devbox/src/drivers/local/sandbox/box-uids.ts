import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/** How many uids boxes take from DEVBOX_UID upward: 61000–64999 by default. */
export const boxUidCount = 4000

export type BoxUids = {
  first: number
  last: number
  /** The uid of a box (or a production server's app), the same after a restart. */
  uidOf: (key: string) => number
  /** Gives a destroyed box's uid back to the range. */
  release: (key: string) => void
}

/**
 * One uid per box from `[first, first + count)`, so per-user kernel limits (inotify instances and
 * watches, pending signals, message queues) are each box's own (issue 29; docs/security.md).
 * Recorded in `file`, so a restart gives each box the uid its files belong to. A full range
 * shares uids again (`onFull` says so): never a failed box.
 */
export function createBoxUids(input: {
  file: string
  first: number
  count?: number
  onFull?: (key: string) => void
}): BoxUids {
  // Never past the largest uid (2^32 - 2: -1 means "no uid" to the kernel).
  const count = Math.min(input.count ?? boxUidCount, 4_294_967_295 - input.first)
  const last = input.first + count - 1
  let assigned: Record<string, number> = {}
  try {
    const recorded = JSON.parse(readFileSync(input.file, 'utf8')) as unknown
    if (recorded && typeof recorded === 'object') {
      for (const [key, uid] of Object.entries(recorded)) {
        if (Number.isInteger(uid) && uid >= input.first && uid <= last) assigned[key] = uid
      }
    }
  } catch {
    assigned = {}
  }
  const save = () => {
    mkdirSync(path.dirname(input.file), { recursive: true })
    const staging = `${input.file}.${process.pid}`
    writeFileSync(staging, JSON.stringify(assigned), { mode: 0o600 })
    renameSync(staging, input.file)
  }
  return {
    first: input.first,
    last,
    uidOf: (key) => {
      const known = assigned[key]
      if (known !== undefined) return known
      const taken = new Set(Object.values(assigned))
      let uid = input.first
      while (uid <= last && taken.has(uid)) uid += 1
      if (uid > last) {
        input.onFull?.(key)
        uid = input.first + (hashOf(key) % count)
      }
      assigned[key] = uid
      save()
      return uid
    },
    release: (key) => {
      if (assigned[key] === undefined) return
      delete assigned[key]
      save()
    },
  }
}

function hashOf(text: string): number {
  let hash = 0
  for (const character of text) hash = (hash * 31 + (character.codePointAt(0) ?? 0)) >>> 0
  return hash
}

/**
 * The passwd and group a box of `uid` sees, bound over the staged /etc's (`boxCommand`): its own
 * user only. Written once per uid in the run directory.
 */
export function stageBoxUser(
  runDirectory: string,
  user: { uid: number; gid: number },
): { passwd: string; group: string } {
  const folder = path.join(runDirectory, 'users', String(user.uid))
  const files = { passwd: path.join(folder, 'passwd'), group: path.join(folder, 'group') }
  if (existsSync(files.group)) return files
  mkdirSync(folder, { recursive: true, mode: 0o755 })
  writeFileSync(
    files.passwd,
    `root:x:0:0:root:/root:/usr/sbin/nologin\nsprout:x:${user.uid}:${user.gid}:Sprout app:/home/sprout:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n`,
    { mode: 0o644 },
  )
  // Written last: its presence says both are there.
  writeFileSync(files.group, `root:x:0:\nsprout:x:${user.gid}:\nnogroup:x:65534:\n`, {
    mode: 0o644,
  })
  return files
}

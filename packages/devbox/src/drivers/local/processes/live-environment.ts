import { randomUUID } from 'node:crypto'
import { constants } from 'node:fs'
import { chown, open, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'

/**
 * Sprout's own variables, which a running dev server of the fullstack template takes from
 * `SPROUT_ENV_FILE` before its next /api request (templates/fullstack/vite.config.ts): setting
 * only these never restarts it. Vault values still do.
 */
const liveVariables = [
  'SENTRY_DSN',
  'SPROUT_APP_TOKEN',
  'SPROUT_INTERNAL_URL',
  'SPROUT_APP_ORIGINS',
]
/** What a workspace's vite.config.ts says when its dev server reads SPROUT_ENV_FILE. */
const liveEnvironmentMarker = 'SPROUT_ENV_FILE'

export function onlyLiveVariablesDiffer(
  first: Record<string, string>,
  second: Record<string, string>,
): boolean {
  for (const key of new Set([...Object.keys(first), ...Object.keys(second)])) {
    if (first[key] !== second[key] && !liveVariables.includes(key)) return false
  }
  return true
}

/**
 * Writes the live variables for the box's processes to read: a new file (never through a link
 * the box left at the name, the folder being the box's), then renamed over the old one.
 */
export async function writeLiveEnvironment(
  file: string,
  env: Record<string, string>,
  owner: { uid: number; gid: number } | undefined,
) {
  // null: the variable is unset (the server deletes it from its environment).
  const values = Object.fromEntries(liveVariables.map((key) => [key, env[key] ?? null]))
  const temporary = path.join(path.dirname(file), `.sprout-env-${randomUUID()}`)
  try {
    await writeFile(temporary, JSON.stringify(values), { flag: 'wx', mode: 0o600 })
    if (owner) await chown(temporary, owner.uid, owner.gid)
    await rename(temporary, file)
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined)
    throw error
  }
}

/** Whether the workspace's dev server reads SPROUT_ENV_FILE (the template's vite.config.ts does). */
export async function readsLiveEnvironment(workspacePath: string): Promise<boolean> {
  // The workspace is the box's: no link followed, no FIFO waited on, no huge file read.
  const handle = await open(
    path.join(workspacePath, 'vite.config.ts'),
    constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
  ).catch(() => undefined)
  if (!handle) return false
  try {
    const stats = await handle.stat()
    if (!stats.isFile() || stats.size > 256 * 1024) return false
    return (await handle.readFile('utf8')).includes(liveEnvironmentMarker)
  } finally {
    await handle.close()
  }
}

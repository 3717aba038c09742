import { createHash, randomBytes } from 'node:crypto'

/** What every instance id of an app starts with: `prod-` and 12 hex digits of its id's hash. */
export function instanceIdPrefix(appId: string): string {
  return `prod-${createHash('sha256').update(appId).digest('hex').slice(0, 12)}-`
}

/**
 * A new instance's id, unique per start, so an instance being drained and its successor never
 * share a namespace, socket or cgroup; valid as a box id and short enough for a socket path.
 */
export function createInstanceId(appId: string): string {
  return `${instanceIdPrefix(appId)}${randomBytes(4).toString('hex')}`
}

import type { Database } from '@sprout/db/database.ts'
import { errorProjects } from '@sprout/db/schema/error-projects.ts'
import { eq } from 'drizzle-orm'

export type ErrorProject = { applicationId: string; projectId: number; publicKey: string }

/** How long a project's key is trusted from memory; a rotation elsewhere takes this long. */
const cacheMs = 5000

/** Project id → its application and key, read from the database at most every few seconds. */
export function createProjectKeys(db: Database) {
  const cache = new Map<number, { project: ErrorProject | undefined; until: number }>()
  return {
    find: async (projectId: number): Promise<ErrorProject | undefined> => {
      const cached = cache.get(projectId)
      if (cached && cached.until > Date.now()) return cached.project
      const rows = await db
        .select({
          applicationId: errorProjects.applicationId,
          projectId: errorProjects.projectId,
          publicKey: errorProjects.publicKey,
        })
        .from(errorProjects)
        .where(eq(errorProjects.projectId, projectId))
        .limit(1)
      const project = rows[0]
      if (cache.size > 10_000) cache.clear()
      cache.set(projectId, { project, until: Date.now() + cacheMs })
      return project
    },
    forget: (projectId: number) => cache.delete(projectId),
  }
}

/**
 * The public key of a request, where Sentry SDKs put it: the `X-Sentry-Auth` header, the
 * `sentry_key` query parameter (the browser SDK), or the `dsn` in the envelope header.
 */
export function requestKey(
  authHeader: string | undefined,
  query: URLSearchParams,
  envelopeDsn: unknown,
): string | undefined {
  if (authHeader) {
    const match = /sentry_key\s*=\s*([^,\s]+)/i.exec(authHeader)
    if (match?.[1]) return match[1]
  }
  const fromQuery = query.get('sentry_key')
  if (fromQuery) return fromQuery
  return dsnParts(envelopeDsn)?.publicKey
}

/** `{scheme}://{publicKey}@{host}/{projectId}` → its key and project id. */
export function dsnParts(dsn: unknown): { publicKey: string; projectId: string } | undefined {
  if (typeof dsn !== 'string' || !URL.canParse(dsn)) return undefined
  const url = new URL(dsn)
  const projectId = url.pathname.split('/').filter(Boolean).at(-1)
  if (!url.username || !projectId) return undefined
  return { publicKey: decodeURIComponent(url.username), projectId }
}

import type { IncomingMessage } from 'node:http'
import type { Database } from '@sprout/db/database.ts'
import { applications } from '@sprout/db/schema/applications.ts'
import { eq } from 'drizzle-orm'
import type { Origins } from '../http/origins.ts'

// The product's routes about one application's box: /api/applications/:id/… and each model's
// /api/{provider}/applications/:id/… (runs, listen).
/** What an application id may look like in a path (a UUID, or a test's shorter id). */
export const applicationIdText = '[0-9a-zA-Z-]{8,64}'
const productPath = new RegExp(
  `^/api/(?:[a-z0-9-]+/)?applications/(${applicationIdText})(?:[/?#]|$)`,
)

/** How long a slug's application is remembered; slugs never move to another application. */
const slugMemoryMs = 60_000

/**
 * Which application's box a request concerns (docs/decisions/033-box-leases-and-relay.md): by
 * the product path's id, or the preview or apps host's slug; undefined for everything else.
 */
export function createApplicationOfRequest(db: Database, origins: Origins) {
  const slugs = new Map<string, { applicationId: string | undefined; until: number }>()
  const bySlug = async (slug: string) => {
    const now = Date.now()
    const known = slugs.get(slug)
    if (known && known.until > now) return known.applicationId
    // The table itself: cluster/ is below applications/ (docs/architecture/overview.md "Areas and layers").
    const [row] = await db
      .select({ id: applications.id })
      .from(applications)
      .where(eq(applications.slug, slug))
      .limit(1)
    const applicationId = row?.id
    if (slugs.size > 10_000) slugs.clear()
    slugs.set(slug, { applicationId, until: now + (applicationId ? slugMemoryMs : 1_000) })
    return applicationId
  }
  return async (request: IncomingMessage): Promise<string | undefined> => {
    const host = request.headers.host ?? ''
    const kind = origins.hostKind(host)
    if (kind === 'product') return productPath.exec(request.url ?? '')?.[1]
    const slug = origins.slugOf(host)
    return slug ? bySlug(slug) : undefined
  }
}

import type { Database } from '@sprout/db/database.ts'
import { TtlCache } from '../auth/auth-cache.ts'
import { type ErrorIngest, ingestEnvelope } from './ingest.ts'
import { dsnFor, type ErrorReporting, errorProjectOf } from './service.ts'

/** How long an application's DSN is reused for its pages (a rotated key shows up after this). */
const dsnCacheMs = 5000

/**
 * The reporters' side of error monitoring (docs/product/error-monitoring.md): each app's DSN
 * for its pages and servers, and its envelopes handed to the ingest, accepted only for its own
 * project.
 */
export function createErrorReporting(input: {
  db: Database
  /** PUBLIC_URL: the DSN's scheme and host (the SDK only reads them; envelopes use the tunnel). */
  publicUrl: string
  ingest: ErrorIngest
  maxBodyBytes: number
  /** Called before an application's envelope is read (loads its vault values for redaction). */
  beforeIngest?: (applicationId: string) => Promise<void>
}): ErrorReporting {
  const dsns = new TtlCache<string>(dsnCacheMs, 10_000)
  return {
    maxBodyBytes: input.maxBodyBytes,
    // Never throws: a page is served, and a server started with its vault values, without it.
    dsnFor: (applicationId) =>
      dsns
        .getOrLoad(applicationId, async () =>
          dsnFor(input.publicUrl, await errorProjectOf(input.db, applicationId)),
        )
        .catch((error: Error) => {
          console.error(`[errors] no DSN for application ${applicationId}:`, error.message)
          return undefined
        }),
    forgetDsns: () => dsns.clear(),
    ingest: async ({ applicationId, projectId, body, headers, query }) => {
      await input.beforeIngest?.(applicationId)
      return ingestEnvelope(input.ingest, { applicationId, projectId, body, headers, query })
    },
  }
}

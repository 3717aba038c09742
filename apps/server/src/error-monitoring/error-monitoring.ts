import type { Database } from '@sprout/db/database.ts'
import type { Config } from '../config/config.ts'
import { createErrorReporting } from './error-reporting.ts'
import { createErrorIngest, type IngestOptions } from './ingest.ts'

/** The error ingest, and what the preview and apps hosts and sprout.internal use of it. */
export function createErrorMonitoring(input: {
  db: Database
  config: Pick<Config, 'errorsRateLimit' | 'maxBodyBytes'>
  /** PUBLIC_URL: the DSNs' scheme and host. */
  publicUrl: string
  /** Error reports keep no vault value (docs/product/vault.md "Redaction"). */
  redact: IngestOptions['redact']
  /** Minified frames of deployed pages back to source lines (decision 016). */
  symbolicate: IngestOptions['symbolicate']
}) {
  const errorIngest = createErrorIngest({
    db: input.db,
    rateLimit: input.config.errorsRateLimit,
    redact: input.redact,
    symbolicate: input.symbolicate,
  })
  const errorReporting = createErrorReporting({
    db: input.db,
    publicUrl: input.publicUrl,
    ingest: errorIngest,
    maxBodyBytes: input.config.maxBodyBytes,
  })
  return { errorIngest, errorReporting }
}

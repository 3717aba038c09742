import { randomBytes } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import type { Database } from '@sprout/db/database.ts'
import { errorProjects } from '@sprout/db/schema/error-projects.ts'
import { eq } from 'drizzle-orm'
import { findApplicationRecord } from '../applications/service.ts'
import type { RequestContext } from '../http/request-context.ts'
import type { ErrorIngest } from './ingest.ts'

export type { EnvelopeBody } from './envelope.ts'
export type { ErrorRecord, RecordHooks } from './event-record.ts'
export type { Frame } from './grouping.ts'
export {
  createErrorIngest,
  type ErrorIngest,
  envelopeCorsHeaders,
  type IngestOptions,
  type IngestRequest,
  type IngestResponse,
  ingestEnvelope,
  ingestRequest,
} from './ingest.ts'
export { type NewErrorGroup, newErrorGroups } from './new-groups.ts'
export {
  errorStats,
  findErrorGroup,
  listErrorGroups,
  listErrorInstances,
  updateErrorGroupStatus,
} from './queries.ts'

/** One envelope for one application's error project, as Sentry's envelope endpoint answers it. */
export type EnvelopeIngest = (input: {
  applicationId: string
  /** The path's project id (sprout.internal); the tunnel's envelopes name it in their header. */
  projectId?: string
  body: Buffer
  headers: IncomingHttpHeaders
  query: URLSearchParams
}) => Promise<{ status: number; body: string; headers?: Record<string, string> }>

/** What the preview and apps hosts and sprout.internal need of error monitoring. */
export type ErrorReporting = {
  /** The application's DSN (its pages', its servers' with sprout.internal), or undefined. */
  dsnFor: (applicationId: string) => Promise<string | undefined>
  /** A key was rotated: the next `dsnFor` reads it again. */
  forgetDsns: () => void
  ingest: EnvelopeIngest
  /** The largest envelope accepted (MAX_BODY_BYTES). */
  maxBodyBytes: number
}

const newKey = () => randomBytes(16).toString('hex')

/** The application's DSN project, made on first use (applications made before it have none). */
export async function errorProjectOf(db: Database, applicationId: string) {
  const read = () =>
    db.select().from(errorProjects).where(eq(errorProjects.applicationId, applicationId)).limit(1)
  const found = (await read())[0]
  if (found) return found
  await db
    .insert(errorProjects)
    .values({ applicationId, publicKey: newKey() })
    .onConflictDoNothing()
  const created = (await read())[0]
  if (!created) throw new Error('the error project was not created')
  return created
}

/** `{PUBLIC_URL scheme}://{publicKey}@{PUBLIC_URL host}/{projectId}` (Sentry's DSN form). */
export function dsnFor(publicUrl: string, project: { publicKey: string; projectId: number }) {
  const url = new URL(publicUrl)
  return `${url.protocol}//${project.publicKey}@${url.host}/${project.projectId}`
}

/** The DSN of the caller's application (`dsn` in `GET /api/applications/{id}`). */
export async function errorDsn(context: RequestContext, applicationId: string) {
  const application = await findApplicationRecord(context, applicationId)
  return dsnFor(context.origins.product, await errorProjectOf(context.db, application.id))
}

/** A new key: the old one is refused at once here, within seconds on other instances. */
export async function rotateErrorKey(
  context: RequestContext,
  applicationId: string,
  ingest: ErrorIngest,
) {
  const application = await findApplicationRecord(context, applicationId)
  const project = await errorProjectOf(context.db, application.id)
  const [rotated] = await context.db
    .update(errorProjects)
    .set({ publicKey: newKey(), rotatedAt: new Date() })
    .where(eq(errorProjects.applicationId, application.id))
    .returning()
  ingest.keys.forget(project.projectId)
  return { dsn: dsnFor(context.origins.product, rotated ?? project) }
}

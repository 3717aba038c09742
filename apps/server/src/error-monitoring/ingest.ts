import type { Database } from '@sprout/db/database.ts'
import {
  decodeBody,
  type EnvelopeBody,
  EnvelopeError,
  parseEnvelope,
  parseEventPayload,
  readBody,
} from './envelope.ts'
import { type ErrorRecord, type RecordHooks, recordOf } from './event-record.ts'
import { createEventWriter } from './event-writer.ts'
import { createProjectKeys, dsnParts, type ErrorProject, requestKey } from './ingest-keys.ts'
import { createIngestRateLimiter } from './rate-limiter.ts'

export type { Frame } from './grouping.ts'

export type IngestOptions = RecordHooks & {
  db: Database
  /** ERRORS_RATE_LIMIT: events per application per window. */
  rateLimit: { max: number; windowSeconds: number }
}

/** One envelope request, as the product route, the preview and apps hosts' tunnel receive it. */
export type IngestRequest = {
  /** The path's project id; the tunnel leaves it out and the envelope header's `dsn` names it. */
  projectId?: string
  body: EnvelopeBody | null | undefined
  headers: Headers | Record<string, string | string[] | undefined>
  query: URLSearchParams
  /** On a preview or apps host: only this application's project is accepted. */
  applicationId?: string
}

export type IngestResponse = { status: number; body: string; headers: Record<string, string> }

/** Browsers may post from any app origin; the SDK reads the rate-limit headers. */
export const envelopeCorsHeaders: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'content-type, content-encoding, x-sentry-auth',
  'access-control-expose-headers': 'x-sentry-rate-limits, retry-after',
}

const acceptedTypes = new Set([
  '',
  'text/plain',
  'application/x-sentry-envelope',
  'application/octet-stream',
])

export type ErrorIngest = ReturnType<typeof createErrorIngest>

/** docs/product/error-monitoring.md "Ingest": the Sentry envelope endpoint's whole work. */
export function createErrorIngest(options: IngestOptions) {
  const keys = createProjectKeys(options.db)
  const limiter = createIngestRateLimiter(options.rateLimit)
  const writer = createEventWriter(options.db)
  return {
    options,
    keys,
    limiter,
    writer,
    /** The reporters' hooks (source maps, the vault's redaction), set once they exist. */
    useHooks: (hooks: RecordHooks) => {
      if (hooks.symbolicate) options.symbolicate = hooks.symbolicate
      if (hooks.redact) options.redact = hooks.redact
    },
    stop: () => writer.stop(),
  }
}

const header = (headers: IngestRequest['headers'], name: string): string | undefined => {
  if (headers instanceof Headers) return headers.get(name) ?? undefined
  const value = headers[name] ?? headers[name.toLowerCase()]
  return Array.isArray(value) ? value[0] : value
}

const answer = (
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): IngestResponse => ({
  status,
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...envelopeCorsHeaders, ...headers },
})

/**
 * Authenticates, parses and stores one envelope: `event` items become error records, stored
 * with their groups before the answer; other item types are accepted and ignored.
 */
export async function ingestEnvelope(
  ingest: ErrorIngest,
  request: IngestRequest,
): Promise<IngestResponse> {
  try {
    return await ingestOrRefuse(ingest, request)
  } catch (error) {
    if (error instanceof EnvelopeError) {
      return answer(error.status, { error: error.message }, error.headers)
    }
    console.error('[errors] envelope failed:', error)
    return answer(500, { error: 'An error occurred' })
  }
}

async function ingestOrRefuse(
  ingest: ErrorIngest,
  request: IngestRequest,
): Promise<IngestResponse> {
  const receivedAt = new Date()
  const contentType =
    (header(request.headers, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  if (!acceptedTypes.has(contentType)) {
    throw new EnvelopeError(
      415,
      `Unsupported Content-Type "${contentType}": send text/plain or application/x-sentry-envelope`,
    )
  }
  const authHeader = header(request.headers, 'x-sentry-auth')
  const earlyKey = requestKey(authHeader, request.query, undefined)
  let project: ErrorProject | undefined
  // With the key outside the body, a refused or limited request is not even decompressed.
  if (earlyKey && request.projectId) {
    project = await authenticate(ingest, request.projectId, earlyKey, request.applicationId)
    limited(ingest, project.applicationId)
  }
  // A host's tunnel names its application: a limited one is refused before its body is read.
  if (!project && request.applicationId) limited(ingest, request.applicationId)
  const raw = await readBody(request.body)
  const data = await decodeBody(raw, header(request.headers, 'content-encoding'))
  if (data.length === 0) throw new EnvelopeError(400, 'The envelope is empty')
  const envelope = parseEnvelope(data)
  if (!project) {
    const fromDsn = dsnParts(envelope.header.dsn)
    const key = earlyKey ?? fromDsn?.publicKey
    const projectId = request.projectId ?? fromDsn?.projectId
    if (!key || !projectId) {
      throw new EnvelopeError(
        401,
        'Authentication required: send the DSN\'s key in X-Sentry-Auth, as ?sentry_key= or in the envelope header\'s "dsn"',
      )
    }
    project = await authenticate(ingest, projectId, key, request.applicationId)
    limited(ingest, project.applicationId)
  }
  const records: ErrorRecord[] = []
  const userAgent = header(request.headers, 'user-agent')
  for (const [index, item] of envelope.items.entries()) {
    if (item.header.type !== 'event') continue
    const event = parseEventPayload(item, index)
    records.push(
      await recordOf(
        project.applicationId,
        event,
        envelope.header.event_id,
        receivedAt,
        userAgent,
        ingest.options,
      ),
    )
  }
  ingest.limiter.count(project.applicationId, records.length)
  await ingest.writer.write(records).catch((error: Error) => {
    if (/stopped/.test(error.message))
      throw new EnvelopeError(503, 'Sprout is restarting; send it again')
    throw error
  })
  const eventId =
    records[0]?.id ??
    (typeof envelope.header.event_id === 'string' ? envelope.header.event_id : undefined)
  return answer(200, eventId ? { id: eventId.replaceAll('-', '') } : {})
}

async function authenticate(
  ingest: ErrorIngest,
  projectId: string,
  key: string,
  applicationId: string | undefined,
): Promise<ErrorProject> {
  if (!/^\d{1,9}$/.test(projectId))
    throw new EnvelopeError(400, `The project id "${projectId}" must be digits`)
  const project = await ingest.keys.find(Number(projectId))
  if (
    !project ||
    project.publicKey !== key ||
    (applicationId && project.applicationId !== applicationId)
  ) {
    throw new EnvelopeError(403, 'Unknown DSN: this key does not belong to this project')
  }
  return project
}

function limited(ingest: ErrorIngest, applicationId: string) {
  const retryAfter = ingest.limiter.retryAfter(applicationId)
  if (retryAfter === 0) return
  throw new EnvelopeError(
    429,
    `Too many errors from this application: try again in ${retryAfter} s (ERRORS_RATE_LIMIT)`,
    // Sentry's SDKs read this header and hold back every kind of item meanwhile.
    { 'retry-after': String(retryAfter), 'x-sentry-rate-limits': `${retryAfter}::project` },
  )
}

/** `ingestEnvelope` for a standard Request (Hono's routes); a preflight is answered here too. */
export async function ingestRequest(
  ingest: ErrorIngest,
  request: Request,
  target: { projectId?: string; applicationId?: string } = {},
): Promise<Response> {
  if (request.method === 'OPTIONS') {
    return new Response(null, { status: 204, headers: envelopeCorsHeaders })
  }
  const answered = await ingestEnvelope(ingest, {
    ...target,
    body: request.body,
    headers: request.headers,
    query: new URL(request.url).searchParams,
  })
  return new Response(answered.body, { status: answered.status, headers: answered.headers })
}

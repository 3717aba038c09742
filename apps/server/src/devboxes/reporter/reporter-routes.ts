import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import { envelopePath, reporterPath } from './inject-reporter.ts'
import { reporterBundle } from './reporter-bundle.ts'

/** One envelope for one application's error project, as Sentry's envelope endpoint answers it. */
export type EnvelopeIngest = (input: {
  applicationId: string
  /** The path's project id (sprout.internal); the tunnel's envelopes name it in their header. */
  projectId?: string
  body: Buffer
  headers: IncomingHttpHeaders
  query: URLSearchParams
}) => Promise<{ status: number; body: string; headers?: Record<string, string> }>

/** What the preview and apps hosts need of error monitoring (wired in app.ts). */
export type ErrorReporting = {
  /** The application's DSN (its pages', its servers' with sprout.internal), or undefined. */
  dsnFor: (applicationId: string) => Promise<string | undefined>
  /** A key was rotated: the next `dsnFor` reads it again. */
  forgetDsns: () => void
  ingest: EnvelopeIngest
  /** The largest envelope accepted (MAX_BODY_BYTES). */
  maxBodyBytes: number
}

export async function readBody(
  request: IncomingMessage,
  limit: number,
): Promise<Buffer | undefined> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request) {
    size += (chunk as Buffer).length
    if (size > limit) return undefined
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

/**
 * `/__sprout/reporter.js` and `/__sprout/envelope` on a preview or apps host (and the envelope
 * path on `sprout.internal`): the reporter's code and its tunnel to the application's ingest.
 * True when the request was one of them (and is answered).
 */
export async function handleReporterRequest(
  request: IncomingMessage,
  response: ServerResponse,
  applicationId: string | undefined,
  reporting: ErrorReporting | undefined,
): Promise<boolean> {
  const url = new URL(request.url ?? '/', 'http://host')
  if (url.pathname === reporterPath && request.method === 'GET') {
    const bundle = await reporterBundle()
    const notModified = request.headers['if-none-match'] === bundle.etag
    const gzip = /\bgzip\b/.test(request.headers['accept-encoding'] ?? '')
    response.writeHead(notModified ? 304 : 200, {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'no-cache',
      etag: bundle.etag,
      vary: 'accept-encoding',
      'x-content-type-options': 'nosniff',
      ...(gzip && !notModified ? { 'content-encoding': 'gzip' } : {}),
    })
    response.end(notModified ? undefined : gzip ? bundle.gzipped : bundle.code)
    return true
  }
  if (url.pathname !== envelopePath) return false
  if (request.method !== 'POST' || !applicationId || !reporting) {
    response.writeHead(request.method === 'POST' ? 404 : 405, { 'content-type': 'text/plain' })
    response.end(request.method === 'POST' ? 'No error project here' : 'Use POST')
    return true
  }
  const body = await readBody(request, reporting.maxBodyBytes)
  if (!body) {
    response.writeHead(413, { 'content-type': 'text/plain', connection: 'close' })
    response.end('Envelope too large')
    return true
  }
  const answer = await reporting.ingest({
    applicationId,
    body,
    headers: request.headers,
    query: url.searchParams,
  })
  response.writeHead(answer.status, {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    ...answer.headers,
  })
  response.end(answer.body)
  return true
}

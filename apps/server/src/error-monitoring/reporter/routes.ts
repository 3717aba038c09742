import type { IncomingMessage, ServerResponse } from 'node:http'
import { readBody } from '../../http/read-body.ts'
import type { ErrorReporting } from '../service.ts'
import { reporterBundle } from './reporter-bundle.ts'
import { envelopePath, reporterPath } from './service.ts'

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
  /** An envelope (by its query) that reports Sprout's own failure: answered, not recorded. */
  fromSproutGap?: (query: URLSearchParams) => boolean,
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
  if (fromSproutGap?.(url.searchParams)) {
    // The SDK is answered as if stored, so it neither retries nor backs off.
    request.resume()
    response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
    response.end('{}')
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

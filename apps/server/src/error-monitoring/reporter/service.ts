import type { IncomingHttpHeaders } from 'node:http'
import { promisify } from 'node:util'
import { brotliDecompress, gunzip, inflate } from 'node:zlib'

// The preview host marks its own failures here; the reporter's routes read them.
export { createPreviewGaps, type PreviewGaps } from './preview-gaps.ts'

export const reporterPath = '/__sprout/reporter.js'
export const envelopePath = '/__sprout/envelope'

/**
 * The largest page the reporter goes into, compressed or not: a longer one is passed on as it
 * came, and one that decompresses past it is cut off (docs/security.md "Answers of an app's server").
 */
export const INJECTED_PAGE_MAX_BYTES = 8 * 1024 * 1024

const decoders: Record<
  string,
  (data: Buffer, options: { maxOutputLength: number }) => Promise<Buffer>
> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
}

const escapeAttribute = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;')

/** The one tag added to a page: the reporter, same-origin (CSP `script-src 'self'` allows it). */
export function reporterScriptTag(input: {
  dsn: string
  environment: 'preview' | 'production'
  release?: string
  /** When the page was served (ms): its reports name it (preview-gaps.ts). */
  servedAt?: number
}): string {
  const release = input.release ? ` data-release="${escapeAttribute(input.release)}"` : ''
  const served = input.servedAt === undefined ? '' : ` data-served="${Math.floor(input.servedAt)}"`
  return `<script src="${reporterPath}" data-dsn="${escapeAttribute(input.dsn)}" data-environment="${input.environment}"${release}${served}></script>`
}

/** The `served` time a preview page's reporter sends its envelopes with, if any. */
export function servedAtOf(query: URLSearchParams): number | undefined {
  const served = Number(query.get('served') ?? Number.NaN)
  return Number.isSafeInteger(served) && served > 0 ? served : undefined
}

/**
 * The page with `tag` right after its `<head>`; without one, after `<html>` or the doctype
 * (never before the doctype, which would put the page in quirks mode), else at its start.
 */
export function injectIntoHtml(html: string, tag: string): string {
  const anchor =
    /<head(?:\s[^>]*)?>/i.exec(html) ??
    /<html(?:\s[^>]*)?>/i.exec(html) ??
    /^\s*<!doctype[^>]*>/i.exec(html)
  if (!anchor) return `${tag}${html}`
  const at = anchor.index + anchor[0].length
  return `${html.slice(0, at)}${tag}${html.slice(at)}`
}

/** Whether an answer is a page the reporter goes into: a 200 `text/html` to a GET. */
export function isInjectableHtml(
  method: string | undefined,
  status: number | undefined,
  headers: IncomingHttpHeaders,
): boolean {
  return (
    method === 'GET' &&
    status === 200 &&
    /^text\/html\b/i.test(headers['content-type'] ?? '') &&
    (headers['content-encoding'] === undefined ||
      headers['content-encoding'] === 'identity' ||
      headers['content-encoding'] in decoders)
  )
}

/** The body as text, decompressed when the server compressed it anyway. */
export async function decodeBody(body: Buffer, encoding: string | undefined): Promise<string> {
  const decode = encoding ? decoders[encoding] : undefined
  const decoded = decode ? await decode(body, { maxOutputLength: INJECTED_PAGE_MAX_BYTES }) : body
  return decoded.toString('utf8')
}

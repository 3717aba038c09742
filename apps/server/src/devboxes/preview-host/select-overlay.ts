import { createHash } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import path from 'node:path'
import { build } from 'esbuild'

// The Select overlay (browser-select-overlay.ts), served to preview pages only: its tag goes into
// the pages of {app}.PREVIEW_DOMAIN, never into a deploy's (docs/product/builder.md "Select mode").

export const selectOverlayPath = '/__sprout/select.js'

type OverlayBundle = { code: string; etag: string }

const entry = path.join(import.meta.dirname, 'browser-select-overlay.ts')
let bundling: Promise<OverlayBundle> | undefined

/** Bundled and minified once per process (the first page that asks), then served from memory. */
export function selectOverlayBundle(): Promise<OverlayBundle> {
  bundling ??= build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    platform: 'browser',
    write: false,
    legalComments: 'none',
  }).then((result) => {
    const code = result.outputFiles[0]?.text ?? ''
    const etag = `"${createHash('sha256').update(code).digest('hex').slice(0, 16)}"`
    return { code, etag }
  })
  bundling.catch(() => {
    bundling = undefined
  })
  return bundling
}

/** The overlay's tag: it posts only to the product's origin and takes messages only from it. */
export function selectOverlayTag(productOrigin: string): string {
  const origin = productOrigin.replaceAll('&', '&amp;').replaceAll('"', '&quot;')
  return `<script src="${selectOverlayPath}" data-product-origin="${origin}"></script>`
}

/** `GET /__sprout/select.js` on a preview host; true when the request was it (and is answered). */
export async function handleSelectOverlayRequest(
  request: IncomingMessage,
  response: ServerResponse,
): Promise<boolean> {
  const pathname = (request.url ?? '/').split('?')[0]
  if (pathname !== selectOverlayPath || request.method !== 'GET') return false
  const bundle = await selectOverlayBundle()
  const notModified = request.headers['if-none-match'] === bundle.etag
  response.writeHead(notModified ? 304 : 200, {
    'content-type': 'text/javascript; charset=utf-8',
    'cache-control': 'no-cache',
    etag: bundle.etag,
    'x-content-type-options': 'nosniff',
  })
  response.end(notModified ? undefined : bundle.code)
  return true
}

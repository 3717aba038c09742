import { createHash } from 'node:crypto'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

export type ReporterBundle = { code: string; gzipped: Buffer; etag: string }

const entry = path.join(import.meta.dirname, 'browser-reporter.ts')
let bundling: Promise<ReporterBundle> | undefined

/**
 * `/__sprout/reporter.js`: @sentry/browser and browser-reporter.ts bundled and minified once per
 * process (the first call; the server starts it at start-up), then served from memory.
 */
export function reporterBundle(): Promise<ReporterBundle> {
  bundling ??= build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    platform: 'browser',
    write: false,
    legalComments: 'none',
    define: { __SENTRY_DEBUG__: 'false', __SENTRY_TRACING__: 'false' },
  }).then((result) => {
    const code = result.outputFiles[0]?.text ?? ''
    const etag = `"${createHash('sha256').update(code).digest('hex').slice(0, 16)}"`
    return { code, gzipped: gzipSync(code), etag }
  })
  bundling.catch(() => {
    bundling = undefined
  })
  return bundling
}

import { createReadStream } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import path from 'node:path'
import type { Database } from '@sprout/db/database.ts'
import { resolveDeployFile } from '@sprout/devbox/resolve-deploy-file.ts'
import { findApplicationBySlug } from '../../applications/service.ts'
import { TtlCache } from '../../auth/auth-cache.ts'
import { sendHostPage } from '../preview-host/host-pages.ts'

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
}

/** `{slug}.APPS_DOMAIN`: the app's current production build, public and static. */
export function createAppsHost(options: { db: Database; deploysDir: string }) {
  const idBySlug = new TtlCache<string | null>(5000, 10_000)
  return {
    handle: async (request: IncomingMessage, response: ServerResponse, slug: string) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        response.writeHead(405, { allow: 'GET, HEAD' })
        return response.end()
      }
      const applicationId = await idBySlug.getOrLoad(
        slug,
        async () => (await findApplicationBySlug(options.db, slug))?.id ?? null,
      )
      const file = applicationId
        ? await resolveDeployFile(options.deploysDir, applicationId, request.url ?? '/')
        : undefined
      if (!file) {
        return sendHostPage(response, 404, {
          title: 'Nothing deployed here',
          message: 'This app has not been deployed yet, or the page does not exist.',
        })
      }
      const extension = path.extname(file).toLowerCase()
      const immutable = /\/assets\//.test(request.url ?? '') && extension !== '.html'
      response.writeHead(200, {
        'content-type': contentTypes[extension] ?? 'application/octet-stream',
        'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        'x-content-type-options': 'nosniff',
      })
      if (request.method === 'HEAD') return response.end()
      createReadStream(file)
        .on('error', () => response.destroy())
        .pipe(response)
    },
  }
}

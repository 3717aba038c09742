import { createReadStream } from 'node:fs'
import { readFile } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import path from 'node:path'
import type { Database } from '@sprout/db/database.ts'
import { AppServerStartError } from '@sprout/devbox/app-servers/app-server-instance.ts'
import type { AppServerManager } from '@sprout/devbox/app-servers/app-server-manager.ts'
import { currentDeployId } from '@sprout/devbox/deploy.ts'
import { resolveDeployFile } from '@sprout/devbox/resolve-deploy-file.ts'
import { visitorAddressOf } from '../../cluster/relayed-client.ts'
import { handleReporterRequest } from '../../error-monitoring/reporter/routes.ts'
import { injectIntoHtml, reporterScriptTag } from '../../error-monitoring/reporter/service.ts'
import type { ErrorReporting } from '../../error-monitoring/service.ts'
import type { Origins } from '../../http/origins.ts'
import type { AppIdentitySigner, AppVisitor } from '../hand-off/app-identity.ts'
import { sendHostPage } from '../preview-host/host-pages.ts'
import { proxyHttp } from '../preview-host/proxy.ts'
import type { AppAccess } from './app-access.ts'
import { createAppAccessGate } from './app-access-gate.ts'

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
  '.wasm': 'application/wasm',
}

const sendJson = (response: ServerResponse, status: number, error: string) => {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
  response.end(JSON.stringify({ error }))
}

/** The app's server did not answer a request it had accepted (it crashed meanwhile). */
const serverUnavailable = {
  contentType: 'application/json',
  body: JSON.stringify({ error: 'The app’s server is not answering. Try again in a moment.' }),
}

/** A deployed page with the reporter's tag after its `<head>`. */
async function sendPage(
  request: IncomingMessage,
  response: ServerResponse,
  file: string,
  reporter: { dsn: string; release: string | undefined },
) {
  const html = await readFile(file, 'utf8')
  // The deploy id is the release: each error says which deploy the page came from.
  const body = Buffer.from(
    injectIntoHtml(html, reporterScriptTag({ ...reporter, environment: 'production' })),
  )
  response.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': body.length,
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
  })
  response.end(request.method === 'HEAD' ? undefined : body)
}

/**
 * `{slug}.APPS_DOMAIN`: the app's current production build, for whoever its visibility lets in
 * (docs/decisions/046-private-apps-and-app-identity.md). Static files are served from the deploy
 * folder; `/api` and `/api/*` go to the app's production server with the caller's signed
 * identity, started on the request when it is not running (docs/architecture/devbox.md,
 * "Production servers").
 */
export function createAppsHost(options: {
  db: Database
  origins: Origins
  authSecret: string
  access: AppAccess
  identity: AppIdentitySigner
  deploysDir: string
  appServers?: AppServerManager
  /** MAX_BODY_BYTES: the limit on a body sent to an app's server. */
  maxBodyBytes: number
  /** TRUST_PROXY: the browser's address is the first of `x-forwarded-for`. */
  trustProxy?: boolean
  /** The reporter in every deployed page and its tunnel (docs/product/error-monitoring.md). */
  errorReporting?: ErrorReporting
}) {
  const gate = createAppAccessGate(options)

  const handleApi = async (
    request: IncomingMessage,
    response: ServerResponse,
    applicationId: string | null,
    identity: string | undefined,
  ) => {
    let lease: Awaited<ReturnType<AppServerManager['acquire']>>
    try {
      lease = applicationId ? await options.appServers?.acquire(applicationId) : undefined
    } catch (error) {
      if (!(error instanceof AppServerStartError)) throw error
      console.warn(`[apps] the server of ${applicationId} did not start: ${error.message}`)
      return sendJson(response, 503, 'The app’s server did not start. Try again in a moment.')
    }
    if (!lease) return sendJson(response, 404, 'This app has no server.')
    const { release } = lease
    response.once('close', release)
    proxyHttp(request, response, lease.target, {
      maxBodyBytes: options.maxBodyBytes,
      unavailable: serverUnavailable,
      identity,
      visitorAddress: visitorAddressOf(request, options.trustProxy === true),
    })
  }

  return {
    handle: async (request: IncomingMessage, response: ServerResponse, slug: string) => {
      const pathname = (request.url ?? '/').split('?')[0] ?? '/'
      const toServer = pathname === '/api' || pathname.startsWith('/api/')
      if (await gate.handleCallback(request, response, slug)) return
      const application = await options.access.application(slug)
      const applicationId = application?.id ?? null
      const reporting = options.errorReporting
      if (await handleReporterRequest(request, response, applicationId ?? undefined, reporting)) {
        return
      }
      let visitor: AppVisitor | undefined
      if (application) {
        const admitted = await gate.admit(request, response, slug, application)
        if (!admitted) return
        visitor = admitted.visitor
      }
      if (!toServer && request.method !== 'GET' && request.method !== 'HEAD') {
        response.writeHead(405, { allow: 'GET, HEAD' })
        response.end()
        return
      }
      if (toServer) {
        const identity = visitor && options.identity.tokenFor(visitor, options.origins.apps(slug))
        return handleApi(request, response, applicationId, identity)
      }
      const file = applicationId
        ? await resolveDeployFile(options.deploysDir, applicationId, request.url ?? '/')
        : undefined
      // Source maps stay beside the deploy for symbolication, never served (decision 016).
      if (!file || path.extname(file).toLowerCase() === '.map') {
        return sendHostPage(response, 404, {
          title: 'Nothing deployed here',
          message: 'This app has not been deployed yet, or the page does not exist.',
        })
      }
      const extension = path.extname(file).toLowerCase()
      if (extension === '.html' && applicationId && reporting) {
        const dsn = await reporting.dsnFor(applicationId)
        const release = await currentDeployId(options.deploysDir, applicationId)
        if (dsn) return sendPage(request, response, file, { dsn, release })
      }
      const immutable = /\/assets\//.test(request.url ?? '') && extension !== '.html'
      response.writeHead(200, {
        'content-type': contentTypes[extension] ?? 'application/octet-stream',
        'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        'x-content-type-options': 'nosniff',
      })
      if (request.method === 'HEAD') {
        response.end()
        return
      }
      createReadStream(file)
        .on('error', () => response.destroy())
        .pipe(response)
    },
  }
}

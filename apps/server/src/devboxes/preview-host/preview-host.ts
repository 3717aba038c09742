import type http from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { Database } from '@sprout/db/database.ts'
import { findApplicationBySlug } from '../../applications/service.ts'
import { type MembershipCache, TtlCache } from '../../auth/auth-cache.ts'
import { visitorAddressOf } from '../../cluster/relayed-client.ts'
import { handleReporterRequest } from '../../error-monitoring/reporter/routes.ts'
import {
  createPreviewGaps,
  type PreviewGaps,
  reporterScriptTag,
  servedAtOf,
} from '../../error-monitoring/reporter/service.ts'
import type { ErrorReporting } from '../../error-monitoring/service.ts'
import type { Origins } from '../../http/origins.ts'
import { findMembership } from '../../organizations/service.ts'
import type { AppAccess } from '../deploys/app-access.ts'
import type { AppIdentitySigner } from '../hand-off/app-identity.ts'
import { answerHandOffCallback, CALLBACK_PATH, handOffLocation } from '../hand-off/host-hand-off.ts'
import { PREVIEW_COOKIE, verifyPreviewSession } from '../hand-off/preview-session.ts'
import type { DevboxRuntime } from '../runtime/devbox-runtime.ts'
import { sendHostPage } from './host-pages.ts'
import { proxyHttp, proxyUpgrade } from './proxy.ts'
import { readCookie } from './read-cookie.ts'
import { handleSelectOverlayRequest, selectOverlayTag } from './select-overlay.ts'

/**
 * How long a page request waits for an idle (or just reopened) dev server to start before it is
 * answered with the self-refreshing 'Starting preview…' page instead; other requests (modules,
 * `fetch` calls, the HMR socket) cannot show a page, so they wait longer.
 */
const pageWaitMs = 8000
const otherWaitMs = 30_000
/** Vite's client probes with this WebSocket protocol until its server is back: not a use. */
const vitePingProtocol = 'vite-ping'
/** What a tunnel's requests name as the dev server's host: the owner's own local name for it. */
const tunnelledTarget = { host: 'localhost', port: 80 }

type ApplicationRef = { id: string; organizationId: string }

export type PreviewHostOptions = {
  db: Database
  origins: Origins
  authSecret: string
  memberships: MembershipCache
  devboxes: DevboxRuntime
  /** The reporter injected into pages and its tunnel (docs/product/error-monitoring.md). */
  errorReporting?: ErrorReporting
  /** TRUST_PROXY: the browser's address is the first of `x-forwarded-for`. */
  trustProxy?: boolean
  /** Tells the dev server who calls (decision 046), as the apps host tells a deploy's server. */
  identity?: { signer: AppIdentitySigner; access: Pick<AppAccess, 'visitor'> }
}

/** A page goes to the /auth/devbox hand-off (`urlOf`: the page's address); anything else is refused. */
function refuseUnauthorized(
  request: IncomingMessage,
  response: ServerResponse,
  urlOf: () => URL,
  productOrigin: string,
): void {
  const wantsPage = request.method === 'GET' && (request.headers.accept ?? '').includes('text/html')
  if (!wantsPage) {
    response.writeHead(401, { 'content-type': 'text/plain; charset=utf-8' })
    response.end('Authentication required')
    return
  }
  const url = urlOf()
  const location = handOffLocation(productOrigin, url.origin, `${url.pathname}${url.search}`)
  response.writeHead(302, { location, 'cache-control': 'no-store' })
  response.end()
}

/**
 * The request, to the app's dev server, pages with the reporter's tag; an answer of Sprout's own
 * (the dev server is not running, or did not answer) is a gap the app's reports then ignore.
 */
async function serveDevServer(
  request: IncomingMessage,
  response: ServerResponse,
  applicationId: string,
  options: Pick<PreviewHostOptions, 'devboxes' | 'errorReporting' | 'origins' | 'trustProxy'> & {
    gaps: PreviewGaps
    identity: string | undefined
  },
) {
  const wantsPage = (request.headers.accept ?? '').includes('text/html')
  const target = await options.devboxes.previewTarget(
    applicationId,
    wantsPage ? pageWaitMs : otherWaitMs,
  )
  if (!target) {
    options.gaps.mark(applicationId)
    return sendHostPage(response, 503, {
      title: 'Starting preview…',
      message: 'The dev server is starting. This page reloads by itself.',
      refreshSeconds: 1,
    })
  }
  const dsn = wantsPage ? await options.errorReporting?.dsnFor(applicationId) : undefined
  // The Select overlay goes into preview pages only (docs/product/builder.md "Select mode").
  const reporter = dsn
    ? reporterScriptTag({ dsn, environment: 'preview', servedAt: Date.now() })
    : ''
  proxyHttp(request, response, target, {
    injectIntoPages: selectOverlayTag(options.origins.product) + reporter,
    onUnavailable: () => options.gaps.mark(applicationId),
    identity: options.identity,
    visitorAddress: visitorAddressOf(request, options.trustProxy === true),
  })
}

/** Sprout's own paths on a preview host: the Select overlay, the reporter and its tunnel. */
async function sproutPaths(
  request: IncomingMessage,
  response: ServerResponse,
  ...reporter: [string, ErrorReporting | undefined, (query: URLSearchParams) => boolean]
): Promise<boolean> {
  return (
    (await handleSelectOverlayRequest(request, response)) ||
    (await handleReporterRequest(request, response, ...reporter))
  )
}

function cookieAttributes(previewOrigin: string) {
  const url = new URL(previewOrigin)
  // Inside the builder the preview is a cross-site iframe on *.localhost and on https set-ups
  // with a different registrable domain, so the cookie must be SameSite=None (hence Secure),
  // and Partitioned, because browsers block unpartitioned third-party cookies.
  const crossSiteCapable = url.protocol === 'https:' || url.hostname.endsWith('.localhost')
  return crossSiteCapable ? 'SameSite=None; Secure; Partitioned' : 'SameSite=Lax'
}

/** A module the tunnel may carry: a bodiless read, not a page (the reporter's tag) nor Sprout's own. */
function tunnellable(request: IncomingMessage) {
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    request.headers['content-length'] === undefined &&
    !request.headers['transfer-encoding'] &&
    !(request.url ?? '/').includes('__sprout') &&
    !(request.headers.accept ?? '').includes('text/html')
  )
}

/**
 * The signed identity of the member calling the app's server (`/api`, decision 046); modules and
 * pages need none, so the hot path pays nothing for it.
 */
async function identityFor(
  request: IncomingMessage,
  slug: string,
  application: ApplicationRef & { userId: string },
  options: Pick<PreviewHostOptions, 'identity' | 'origins'>,
) {
  const url = request.url ?? '/'
  if (!options.identity || !(url === '/api' || /^\/api[/?]/.test(url))) return undefined
  const visitor = await options.identity.access.visitor(
    application.userId,
    application.organizationId,
  )
  return visitor && options.identity.signer.tokenFor(visitor, options.origins.preview(slug))
}

/**
 * `{slug}.PREVIEW_DOMAIN`: the app's dev server, only for members of its organization who came
 * through the /auth/devbox hand-off (a single-use token exchanged here for an HttpOnly cookie).
 */
export function createPreviewHost(options: PreviewHostOptions) {
  const { db, origins, devboxes } = options
  const bySlug = new TtlCache<ApplicationRef | null>(5000, 10_000)
  const gaps = createPreviewGaps()

  const findApplication = (slug: string) =>
    bySlug.getOrLoad(slug, async () => (await findApplicationBySlug(db, slug)) ?? null)

  /** The application when the request carries a valid preview cookie of a current member. */
  const authorize = async (request: IncomingMessage, slug: string) => {
    const session = verifyPreviewSession(options.authSecret, readCookie(request, PREVIEW_COOKIE))
    if (!session) return undefined
    const application = await findApplication(slug)
    if (!application || application.id !== session.applicationId) return undefined
    const membership = await findMembership(
      { db, userId: session.userId, memberships: options.memberships },
      application.organizationId,
    )
    return membership ? { ...application, userId: session.userId } : undefined
  }

  return {
    handle: async (request: IncomingMessage, response: ServerResponse, slug: string) => {
      const requestTarget = request.url ?? '/'
      const urlOf = () => new URL(requestTarget, origins.preview(slug))
      // Sprout's own paths (hand-off callback, reporter) hold `__sprout` literally however the URL
      // normalizes (an encoded `_` stays encoded); other requests need no URL object
      // (docs/performance.md "API and proxies (second pass)").
      const sproutPath = requestTarget.includes('__sprout')
      if (sproutPath) {
        const url = urlOf()
        if (url.pathname === CALLBACK_PATH) {
          const hostOrigin = origins.preview(slug)
          return answerHandOffCallback({
            db,
            authSecret: options.authSecret,
            productOrigin: origins.product,
            response,
            url,
            slug,
            host: 'preview',
            hostOrigin,
            cookieAttributes: cookieAttributes(hostOrigin),
          })
        }
      }
      const application = await authorize(request, slug)
      if (!application) return refuseUnauthorized(request, response, urlOf, origins.product)
      const reporting = options.errorReporting
      const fromGap = (query: URLSearchParams) => gaps.covers(application.id, servedAtOf(query))
      if (sproutPath && (await sproutPaths(request, response, application.id, reporting, fromGap)))
        return
      const identity = await identityFor(request, slug, application, options)
      return serveDevServer(request, response, application.id, { ...options, gaps, identity })
    },

    /**
     * A module of a box another instance owns, straight to its dev server through a tunnel
     * (docs/decisions/042-dev-server-tunnel.md), after the same sign-in check; pages (the
     * reporter's tag), Sprout's own paths and requests with a body go the long way (`relayed`).
     */
    handleTunnelled: async (
      request: IncomingMessage,
      response: ServerResponse,
      slug: string,
      agent: http.Agent,
      relayed: () => void,
    ) => {
      if (!tunnellable(request)) return relayed()
      const application = await authorize(request, slug)
      if (!application) {
        const urlOf = () => new URL(request.url ?? '/', origins.preview(slug))
        return refuseUnauthorized(request, response, urlOf, origins.product)
      }
      const identity = await identityFor(request, slug, application, options)
      proxyHttp(request, response, tunnelledTarget, { agent, otherwise: relayed, identity })
    },

    upgrade: async (request: IncomingMessage, socket: Duplex, head: Buffer, slug: string) => {
      const application = await authorize(request, slug)
      if (!application) {
        socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n')
        return
      }
      // An open preview tab whose dev server idled probes until it is back; that alone must not
      // start it again (docs/architecture/devbox.md "Idle dev servers").
      const probe = request.headers['sec-websocket-protocol'] === vitePingProtocol
      const target = probe
        ? devboxes.devServerTarget(application.id)
        : await devboxes.previewTarget(application.id, otherWaitMs)
      if (!target) {
        socket.end('HTTP/1.1 503 Service Unavailable\r\n\r\n')
        return
      }
      proxyUpgrade(request, socket, head, target, () => devboxes.touch(application.id))
    },
  }
}

import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Database } from '@sprout/db/database.ts'
import type { Origins } from '../../http/origins.ts'
import type { AppVisitor } from '../hand-off/app-identity.ts'
import { answerHandOffCallback, CALLBACK_PATH, handOffLocation } from '../hand-off/host-hand-off.ts'
import { APP_COOKIE, verifyPreviewSession } from '../hand-off/preview-session.ts'
import { sendHostPage } from '../preview-host/host-pages.ts'
import { readCookie } from '../preview-host/read-cookie.ts'
import type { AccessDecision, AppAccess, AppAccessRecord } from './app-access.ts'

const sendJson = (response: ServerResponse, status: number, error: string) => {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
  response.end(JSON.stringify({ error }))
}

/** The refusal page's text: whose app it is and how to ask for access. */
function refusalText(app: AppAccessRecord, decision: Extract<AccessDecision, { kind: 'refused' }>) {
  if (decision.reason === 'unverified') {
    return `${decision.email} may open this app once the address is verified. Verify it from your Sprout account, then open this page again.`
  }
  const ask = app.isPersonal
    ? `Ask ${app.ownerLabel} to add ${decision.email}.`
    : `Ask an admin of ${app.ownerLabel} to give ${decision.email} access.`
  return `This app belongs to ${app.ownerLabel}. ${ask}`
}

/**
 * The apps host's door for apps that are not public (docs/decisions/046-private-apps-and-app-identity.md):
 * the hand-off's callback, the app's own cookie, and the answer to whoever may not come in. A
 * page goes to Sprout's sign-in and back; an `/api` call or any other request gets JSON.
 */
export function createAppAccessGate(options: {
  db: Database
  origins: Origins
  authSecret: string
  access: AppAccess
}) {
  const { origins } = options

  const refuse = (
    request: IncomingMessage,
    response: ServerResponse,
    slug: string,
    app: AppAccessRecord,
    decision: Exclude<AccessDecision, { kind: 'open' }>,
  ) => {
    const pathname = (request.url ?? '/').split('?')[0] ?? '/'
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !(pathname === '/api' || pathname.startsWith('/api/')) &&
      (request.headers.accept ?? '').includes('text/html')
    request.resume()
    if (decision.kind === 'sign-in') {
      if (!wantsPage) return sendJson(response, 401, 'Sign in to Sprout to use this app.')
      const location = handOffLocation(origins.product, origins.apps(slug), request.url ?? '/')
      response.writeHead(302, { location, 'cache-control': 'no-store' })
      response.end()
      return
    }
    const message = refusalText(app, decision)
    if (!wantsPage) return sendJson(response, 403, message)
    sendHostPage(response, 403, {
      title: 'You don’t have access to this app',
      message,
      link: { href: origins.product, text: 'Go to Sprout' },
    })
  }

  return {
    /** The hand-off's callback on an apps host: true when this request was it. */
    handleCallback: async (request: IncomingMessage, response: ServerResponse, slug: string) => {
      if (!(request.url ?? '').includes('__sprout')) return false
      const url = new URL(request.url ?? '/', origins.apps(slug))
      if (url.pathname !== CALLBACK_PATH) return false
      const hostOrigin = origins.apps(slug)
      await answerHandOffCallback({
        db: options.db,
        authSecret: options.authSecret,
        productOrigin: origins.product,
        response,
        url,
        slug,
        host: 'app',
        hostOrigin,
        // A top-level page of its own origin, never a frame of another site.
        cookieAttributes: `SameSite=Lax${hostOrigin.startsWith('https:') ? '; Secure' : ''}`,
      })
      return true
    },

    /**
     * Who comes in: the visitor's identity to pass on (none for an anonymous visitor of a public
     * app), or `false` when the request was answered (sent to sign in, or refused).
     */
    admit: async (
      request: IncomingMessage,
      response: ServerResponse,
      slug: string,
      app: AppAccessRecord,
    ): Promise<{ visitor?: AppVisitor } | false> => {
      const value = readCookie(request, APP_COOKIE)
      // A public app's anonymous visitor costs nothing more than before.
      if (!value && app.visibility === 'public') return {}
      const session = verifyPreviewSession(options.authSecret, value, Date.now(), 'app')
      const userId = session?.applicationId === app.id ? session.userId : undefined
      const decision = await options.access.decide(app, userId)
      if (decision.kind === 'open') return { visitor: decision.visitor }
      refuse(request, response, slug, app, decision)
      return false
    },
  }
}

export type AppAccessGate = ReturnType<typeof createAppAccessGate>

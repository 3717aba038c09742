import type { ServerResponse } from 'node:http'
import type { Database } from '@sprout/db/database.ts'
import { sendHostPage } from '../preview-host/host-pages.ts'
import {
  APP_COOKIE,
  PREVIEW_COOKIE,
  type SessionHost,
  signPreviewSession,
} from './preview-session.ts'
import { safeReturnUrl } from './return-path.ts'
import { redeemDevboxToken } from './service.ts'

/** Where a preview or apps host sends the browser back with its token (decision 006). */
export const CALLBACK_PATH = '/__sprout/auth/callback'

const cookieNames: Record<SessionHost, string> = { preview: PREVIEW_COOKIE, app: APP_COOKIE }

/** The product's /auth/devbox, which signs the browser in and comes back to `returnPath`. */
export function handOffLocation(productOrigin: string, hostOrigin: string, returnPath: string) {
  const handOff = new URL('/auth/devbox', productOrigin)
  handOff.searchParams.set('devbox', hostOrigin)
  handOff.searchParams.set('return', returnPath)
  return handOff.toString()
}

/**
 * The hand-off's callback on a preview or apps host (decisions 006 and 046): the single-use
 * token, issued for this host and app, becomes the host's signed cookie, and the browser goes on
 * to `return`, kept on the host's origin.
 */
export async function answerHandOffCallback(input: {
  db: Database
  authSecret: string
  productOrigin: string
  response: ServerResponse
  url: URL
  slug: string
  host: SessionHost
  hostOrigin: string
  /** The cookie's SameSite and Secure attributes, which differ by host. */
  cookieAttributes: string
}) {
  const { response, url } = input
  const token = url.searchParams.get('token')
  const returnUrl = safeReturnUrl(url.searchParams.get('return') ?? undefined, input.hostOrigin)
  const redeemed = token
    ? await redeemDevboxToken(input.db, token, input.slug, input.host)
    : undefined
  if (!redeemed) {
    return sendHostPage(response, 401, {
      title: 'Authentication Error',
      message: 'Authentication failed',
      link: { href: input.productOrigin, text: 'Return to Home' },
    })
  }
  const cookie = signPreviewSession(input.authSecret, redeemed, Date.now(), input.host)
  response.writeHead(302, {
    location: returnUrl,
    'set-cookie': `${cookieNames[input.host]}=${cookie.value}; Path=/; HttpOnly; Max-Age=${cookie.maxAgeSeconds}; ${input.cookieAttributes}`,
    'cache-control': 'no-store',
  })
  response.end()
}

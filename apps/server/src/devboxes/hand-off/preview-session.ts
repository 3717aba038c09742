import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto'

export const PREVIEW_COOKIE = 'sprout_preview'
const lifetimeSeconds = 12 * 60 * 60
/** Cookies verified once per server and kept (every preview request carries one). */
const maxVerified = 1000

export type PreviewSession = { userId: string; applicationId: string }

type Verified = { session: PreviewSession; expiresMs: number }

/** The HMAC key of each secret, made once (a string key is imported again on every HMAC). */
const keys = new Map<string, KeyObject>()
/** Per secret, the cookie values whose signature was checked, with their expiry. */
const verifiedBySecret = new Map<string, Map<string, Verified>>()

/** A cookie value for the preview origin: who, for which app, until when, signed. */
export function signPreviewSession(secret: string, session: PreviewSession, now = Date.now()) {
  const expires = Math.floor(now / 1000) + lifetimeSeconds
  const payload = `${session.userId}.${session.applicationId}.${expires}`
  return { value: `${payload}.${sign(secret, payload)}`, maxAgeSeconds: lifetimeSeconds }
}

/**
 * The session of a cookie value when its signature holds and it has not expired. A value whose
 * signature was checked once is remembered (up to `maxVerified`), so a page's many requests cost
 * one HMAC, not one each; its expiry is still checked every time.
 */
export function verifyPreviewSession(
  secret: string,
  value: string | undefined,
  now = Date.now(),
): PreviewSession | undefined {
  if (!value) return undefined
  let verified = verifiedBySecret.get(secret)
  const known = verified?.get(value)
  if (known) return known.expiresMs > now ? known.session : undefined
  const parts = value.split('.')
  if (parts.length !== 4) return undefined
  const [userId, applicationId, expires, signature] = parts as [string, string, string, string]
  const expected = Buffer.from(sign(secret, `${userId}.${applicationId}.${expires}`))
  const given = Buffer.from(signature)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
  const expiresMs = Number(expires) * 1000
  if (!(expiresMs > now)) return undefined
  const session = { userId, applicationId }
  if (!verified) {
    // One secret per server; tests start many.
    if (verifiedBySecret.size >= 16) verifiedBySecret.clear()
    verified = new Map()
    verifiedBySecret.set(secret, verified)
  }
  if (verified.size >= maxVerified) {
    const oldest = verified.keys().next().value
    if (oldest !== undefined) verified.delete(oldest)
  }
  verified.set(value, { session, expiresMs })
  return session
}

function sign(secret: string, payload: string): string {
  let key = keys.get(secret)
  if (!key) {
    if (keys.size >= 16) keys.clear()
    key = createSecretKey(Buffer.from(`preview-session:${secret}`, 'utf8'))
    keys.set(secret, key)
  }
  return createHmac('sha256', key).update(payload).digest('base64url')
}

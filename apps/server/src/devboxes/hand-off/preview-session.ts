import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto'

export const PREVIEW_COOKIE = 'sprout_preview'
/** The apps host's cookie of a private app (decision 046): a key of its own, never the preview's. */
export const APP_COOKIE = 'sprout_app'
/** Which host a cookie is for: each signs with a key of its own, so neither is taken for the other. */
export type SessionHost = 'preview' | 'app'
const lifetimeSeconds = 12 * 60 * 60
/** Cookies verified once per server and kept (every preview request carries one). */
const maxVerified = 1000

export type PreviewSession = { userId: string; applicationId: string }

type Verified = { session: PreviewSession; expiresMs: number }

/** The HMAC key of each secret, made once (a string key is imported again on every HMAC). */
const keys = new Map<string, KeyObject>()
/** Per host and secret, the cookie values whose signature was checked, with their expiry. */
const verifiedBySecret = new Map<string, Map<string, Verified>>()

/** A cookie value for the preview origin: who, for which app, until when, signed. */
export function signPreviewSession(
  secret: string,
  session: PreviewSession,
  now = Date.now(),
  host: SessionHost = 'preview',
) {
  const expires = Math.floor(now / 1000) + lifetimeSeconds
  const payload = `${session.userId}.${session.applicationId}.${expires}`
  return { value: `${payload}.${sign(secret, payload, host)}`, maxAgeSeconds: lifetimeSeconds }
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
  host: SessionHost = 'preview',
): PreviewSession | undefined {
  if (!value) return undefined
  const keyName = `${host}:${secret}`
  let verified = verifiedBySecret.get(keyName)
  const known = verified?.get(value)
  if (known) return known.expiresMs > now ? known.session : undefined
  const parts = value.split('.')
  if (parts.length !== 4) return undefined
  const [userId, applicationId, expires, signature] = parts as [string, string, string, string]
  const expected = Buffer.from(sign(secret, `${userId}.${applicationId}.${expires}`, host))
  const given = Buffer.from(signature)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
  const expiresMs = Number(expires) * 1000
  if (!(expiresMs > now)) return undefined
  const session = { userId, applicationId }
  if (!verified) {
    // One secret per server; tests start many.
    if (verifiedBySecret.size >= 16) verifiedBySecret.clear()
    verified = new Map()
    verifiedBySecret.set(keyName, verified)
  }
  if (verified.size >= maxVerified) {
    const oldest = verified.keys().next().value
    if (oldest !== undefined) verified.delete(oldest)
  }
  verified.set(value, { session, expiresMs })
  return session
}

function sign(secret: string, payload: string, host: SessionHost): string {
  const keyName = `${host}:${secret}`
  let key = keys.get(keyName)
  if (!key) {
    if (keys.size >= 16) keys.clear()
    key = createSecretKey(Buffer.from(`${host}-session:${secret}`, 'utf8'))
    keys.set(keyName, key)
  }
  return createHmac('sha256', key).update(payload).digest('base64url')
}

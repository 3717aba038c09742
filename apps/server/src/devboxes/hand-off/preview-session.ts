import { createHmac, timingSafeEqual } from 'node:crypto'

export const PREVIEW_COOKIE = 'sprout_preview'
const lifetimeSeconds = 12 * 60 * 60

export type PreviewSession = { userId: string; applicationId: string }

/** A cookie value for the preview origin: who, for which app, until when, signed. */
export function signPreviewSession(secret: string, session: PreviewSession, now = Date.now()) {
  const expires = Math.floor(now / 1000) + lifetimeSeconds
  const payload = `${session.userId}.${session.applicationId}.${expires}`
  return { value: `${payload}.${sign(secret, payload)}`, maxAgeSeconds: lifetimeSeconds }
}

export function verifyPreviewSession(
  secret: string,
  value: string | undefined,
  now = Date.now(),
): PreviewSession | undefined {
  if (!value) return undefined
  const parts = value.split('.')
  if (parts.length !== 4) return undefined
  const [userId, applicationId, expires, signature] = parts as [string, string, string, string]
  const expected = Buffer.from(sign(secret, `${userId}.${applicationId}.${expires}`))
  const given = Buffer.from(signature)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
  if (Number(expires) * 1000 <= now) return undefined
  return { userId, applicationId }
}

function sign(secret: string, payload: string): string {
  return createHmac('sha256', `preview-session:${secret}`).update(payload).digest('base64url')
}

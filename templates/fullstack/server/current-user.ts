/**
 * Who is calling: `await currentUser(c)` in a route gives the person Sprout signed in, or null.
 *
 * Sprout opens an app for its organization's members (or listed people) only when the app is
 * set so, and passes every `/api` request the caller's identity: a short-lived token signed by
 * Sprout in the `x-sprout-identity` header, which Sprout removes from anything a browser sends.
 * It is checked here against Sprout's public keys at SPROUT_INTERNAL_URL, so a forged, altered,
 * expired or another app's token gives null. `role` is the caller's role in the app's
 * organization ('owner', 'admin', 'member'), or null for someone listed by email.
 *
 *   const user = await currentUser(c)
 *   if (user?.role !== 'owner' && user?.role !== 'admin') {
 *     return c.json({ error: 'Only admins can delete reports' }, 403)
 *   }
 *
 * Outside Sprout (no SPROUT_INTERNAL_URL) nobody is signed in: it returns null.
 */
import { createPublicKey, type KeyObject, verify } from 'node:crypto'
import type { Context } from 'hono'

export type CurrentUser = {
  id: string
  name: string
  email: string
  /** The app's organization in Sprout. */
  organization: string
  role: 'owner' | 'admin' | 'member' | null
}

type Claims = {
  aud?: unknown
  sub?: unknown
  name?: unknown
  email?: unknown
  org?: unknown
  role?: unknown
  exp?: unknown
  iat?: unknown
}

const header = 'x-sprout-identity'
/** Sprout's clock and the app's may differ by this much. */
const leewaySeconds = 30
const keysLifetimeMs = 5 * 60_000

let keys: { byId: Map<string, KeyObject>; fetchedAt: number } | undefined
let fetching: Promise<Map<string, KeyObject>> | undefined

async function fetchKeys(): Promise<Map<string, KeyObject>> {
  const base = process.env.SPROUT_INTERNAL_URL
  if (!base) return new Map()
  const response = await fetch(`${base}/.well-known/jwks.json`)
  if (!response.ok) throw new Error(`Sprout's keys could not be read: ${response.status}`)
  const body = (await response.json()) as { keys?: Array<Record<string, string>> }
  const byId = new Map<string, KeyObject>()
  for (const jwk of body.keys ?? []) {
    if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || !jwk.kid || !jwk.x) continue
    byId.set(
      jwk.kid,
      createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' }),
    )
  }
  keys = { byId, fetchedAt: Date.now() }
  return byId
}

/** Sprout's keys, read once and again after 5 minutes or when a token names one not known yet. */
async function keyOf(kid: string): Promise<KeyObject | undefined> {
  const fresh = keys && Date.now() - keys.fetchedAt < keysLifetimeMs
  const known = keys?.byId.get(kid)
  if (known && fresh) return known
  // A token naming an unknown key asks again at most every 30 s, so forged ones cost nothing.
  if (keys && fresh && Date.now() - keys.fetchedAt < 30_000) return undefined
  fetching ??= fetchKeys().finally(() => {
    fetching = undefined
  })
  return (await fetching).get(kid)
}

const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))

/** The verified claims of `token` for the app at `host`, or undefined. */
async function verifyToken(token: string, host: string | undefined): Promise<Claims | undefined> {
  const parts = token.split('.')
  if (parts.length !== 3) return undefined
  const [encodedHeader, encodedClaims, signature] = parts as [string, string, string]
  let tokenHeader: { alg?: unknown; kid?: unknown }
  let claims: Claims
  try {
    tokenHeader = decode(encodedHeader)
    claims = decode(encodedClaims)
  } catch {
    return undefined
  }
  // Only Sprout's algorithm: never 'none', never one the token chooses.
  if (tokenHeader.alg !== 'EdDSA' || typeof tokenHeader.kid !== 'string') return undefined
  const key = await keyOf(tokenHeader.kid)
  if (!key) return undefined
  const signed = Buffer.from(`${encodedHeader}.${encodedClaims}`)
  if (!verify(null, signed, key, Buffer.from(signature, 'base64url'))) return undefined
  const now = Math.floor(Date.now() / 1000)
  if (typeof claims.exp !== 'number' || claims.exp + leewaySeconds < now) return undefined
  if (typeof claims.iat !== 'number' || claims.iat - leewaySeconds > now) return undefined
  // A token made for another app is not this app's caller.
  if (typeof claims.aud !== 'string' || !host || new URL(claims.aud).host !== host) return undefined
  return claims
}

export async function currentUser(c: Context): Promise<CurrentUser | null> {
  const token = c.req.header(header)
  if (!token || token.length > 4096) return null
  // Sprout's proxy names the address the browser used; the server itself listens elsewhere.
  const host = c.req.header('x-forwarded-host') ?? c.req.header('host')
  const claims = await verifyToken(token, host).catch(() => undefined)
  if (!claims) return null
  const { sub, name, email, org, role } = claims
  if (typeof sub !== 'string' || typeof email !== 'string' || typeof org !== 'string') return null
  return {
    id: sub,
    name: typeof name === 'string' ? name : email,
    email,
    organization: org,
    role: role === 'owner' || role === 'admin' || role === 'member' ? role : null,
  }
}

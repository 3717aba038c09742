import {
  createHash,
  createPrivateKey,
  createPublicKey,
  hkdfSync,
  type KeyObject,
  sign,
} from 'node:crypto'
import {
  APP_IDENTITY_LIFETIME_SECONDS,
  type AppIdentityClaims,
} from '@sprout/protocol/api/app-visibility.ts'

/** Who an app's request comes from, as the apps and preview hosts pass it on (decision 046). */
export type AppVisitor = Omit<AppIdentityClaims, 'iss' | 'aud' | 'iat' | 'exp'>

/** An Ed25519 private key in PKCS #8 is this prefix and the 32-byte seed (RFC 8410). */
const ed25519Pkcs8Prefix = Buffer.from('302e020100300506032b657004220420', 'hex')
/** A token is signed again once less than this is left of it, so none reaches an app nearly spent. */
const renewWithinSeconds = 240
const maxCachedTokens = 10_000

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url')

/**
 * The key Sprout signs apps' identity tokens with: derived from the auth secret every instance
 * shares, so any instance signs and all publish one key set, and nothing is stored
 * (docs/decisions/046-private-apps-and-app-identity.md).
 */
export function createAppIdentitySigner(authSecret: string, issuer: string) {
  const seed = Buffer.from(hkdfSync('sha256', authSecret, 'sprout', 'sprout app identity v1', 32))
  const privateKey: KeyObject = createPrivateKey({
    key: Buffer.concat([ed25519Pkcs8Prefix, seed]),
    format: 'der',
    type: 'pkcs8',
  })
  const { x } = createPublicKey(privateKey).export({ format: 'jwk' }) as { x: string }
  // RFC 7638's thumbprint: the required members, in lexical order, without spaces.
  const kid = base64url(
    createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest(),
  )
  const jwks = { keys: [{ kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' }] }
  const header = base64url(JSON.stringify({ alg: 'EdDSA', typ: 'JWT', kid }))
  const cache = new Map<string, { token: string; expires: number }>()

  const signToken = (visitor: AppVisitor, audience: string, now: number) => {
    const claims: AppIdentityClaims = {
      iss: issuer,
      aud: audience,
      ...visitor,
      iat: now,
      exp: now + APP_IDENTITY_LIFETIME_SECONDS,
    }
    const signingInput = `${header}.${base64url(JSON.stringify(claims))}`
    const signature = sign(null, Buffer.from(signingInput), privateKey)
    return { token: `${signingInput}.${base64url(signature)}`, expires: claims.exp }
  }

  return {
    /** The JSON Web Key Set apps verify with (at sprout.internal's `/.well-known/jwks.json`). */
    jwks,
    /**
     * A token for `visitor` calling the app at `audience` (its origin). One per visitor and app
     * is kept and reused until little of it is left: an ask costs a map lookup, not a signature.
     */
    tokenFor: (visitor: AppVisitor, audience: string, nowMs = Date.now()) => {
      const now = Math.floor(nowMs / 1000)
      const key = JSON.stringify([audience, visitor])
      const kept = cache.get(key)
      if (kept && kept.expires - now > renewWithinSeconds) return kept.token
      const made = signToken(visitor, audience, now)
      if (cache.size >= maxCachedTokens) cache.clear()
      cache.set(key, made)
      return made.token
    },
  }
}

export type AppIdentitySigner = ReturnType<typeof createAppIdentitySigner>

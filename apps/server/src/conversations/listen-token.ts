import { createLocalJWKSet, errors, type JSONWebKeySet, jwtVerify } from 'jose'
import type { Auth } from '../auth/auth.ts'

export type ListenTokenClaims = { userId: string; issuedAt: number }

const keysMaxAgeMs = 5 * 60_000
/** A token signed with a key this process has not seen makes it reload the keys, at most this often. */
const reloadMinIntervalMs = 1_000

/**
 * Verifies the short-lived JWTs of GET /api/auth/token (better-auth's jwt plugin) against its
 * public keys, kept in memory: the listen route is hit on every reconnect. Issuer and audience
 * must be PUBLIC_URL. Resolves to the user id and when it was issued (ms), or undefined for any
 * invalid token.
 */
export function createListenTokenVerifier(auth: Auth, publicUrl: string) {
  let keySet: ReturnType<typeof createLocalJWKSet> | undefined
  let loadedAt = 0

  const load = async () => {
    const jwks = (await auth.api.getJwks()) as JSONWebKeySet
    keySet = createLocalJWKSet(jwks)
    loadedAt = Date.now()
    return keySet
  }

  const verify = async (token: string, keys: ReturnType<typeof createLocalJWKSet>) => {
    const { payload } = await jwtVerify(token, keys, { issuer: publicUrl, audience: publicUrl })
    if (typeof payload.sub !== 'string' || payload.sub === '') return undefined
    return { userId: payload.sub, issuedAt: (payload.iat ?? 0) * 1000 }
  }

  return async (token: string): Promise<ListenTokenClaims | undefined> => {
    const keys = keySet && Date.now() - loadedAt < keysMaxAgeMs ? keySet : await load()
    try {
      return await verify(token, keys)
    } catch (error) {
      const unknownKey = error instanceof errors.JWKSNoMatchingKey
      if (!unknownKey || Date.now() - loadedAt < reloadMinIntervalMs) return undefined
      try {
        return await verify(token, await load())
      } catch {
        return undefined
      }
    }
  }
}

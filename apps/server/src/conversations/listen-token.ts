import { createLocalJWKSet, errors, type JSONWebKeySet, jwtVerify } from 'jose'
import type { Auth } from '../auth/auth.ts'

/** Who the token is for and the session it was minted by (auth.ts `definePayload`). */
export type ListenTokenClaims = { userId: string; sessionId: string }

const keysMaxAgeMs = 5 * 60_000
/** A token signed with a key this process has not seen makes it reload the keys, at most this often. */
const reloadMinIntervalMs = 1_000

/**
 * Verifies the short-lived JWTs of GET /api/auth/token (better-auth's jwt plugin) against its
 * public keys, kept in memory: the listen route is hit on every reconnect. Issuer and audience
 * must be PUBLIC_URL. Resolves to the user and session ids, or undefined for any invalid token.
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
    const sessionId = payload.sid
    if (typeof payload.sub !== 'string' || payload.sub === '') return undefined
    if (typeof sessionId !== 'string' || sessionId === '') return undefined
    return { userId: payload.sub, sessionId }
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

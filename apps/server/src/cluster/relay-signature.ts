import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto'

/** The header a relayed request carries (docs/decisions/033-box-leases-and-relay.md). */
export const RELAY_HEADER = 'x-sprout-relay'
/** The client's address as the relaying instance saw it, signed with the rest. */
export const RELAY_CLIENT_HEADER = 'x-sprout-relay-client'

/** A relayed request older than this is refused, and one seen before within it too. */
export const relayMaxAgeMs = 30_000

/** The instances' shared key, derived from VAULT_KEY so no further setting is needed. */
export function relayKeyFrom(vaultKey: string): Buffer {
  return Buffer.from(
    hkdfSync('sha256', Buffer.from(vaultKey, 'base64'), 'sprout', 'sprout instance relay v1', 32),
  )
}

type Signed = { method: string; path: string; instanceId: string; client: string }

const message = (signed: Signed, timestamp: string, nonce: string) =>
  [
    signed.method.toUpperCase(),
    signed.path,
    timestamp,
    nonce,
    signed.instanceId,
    signed.client,
  ].join('\n')

const mac = (key: Buffer, text: string) =>
  createHmac('sha256', key).update(text).digest('base64url')

/** `{instanceId}.{timestamp}.{nonce}.{mac}`; the nonce makes each relayed request single-use. */
export function signRelay(key: Buffer, signed: Signed, now = Date.now()): string {
  const timestamp = String(now)
  const nonce = randomBytes(12).toString('base64url')
  return `${signed.instanceId}.${timestamp}.${nonce}.${mac(key, message(signed, timestamp, nonce))}`
}

/** Checks relay headers: each nonce once within relayMaxAgeMs, nothing older or from the future. */
export function createRelayVerifier(key: Buffer) {
  const seen = new Map<string, number>()
  return (
    header: string,
    request: { method: string; path: string; client: string },
    now = Date.now(),
  ): boolean => {
    const [instanceId, timestamp, nonce, signature, extra] = header.split('.')
    if (!instanceId || !timestamp || !nonce || !signature || extra !== undefined) return false
    const at = Number(timestamp)
    if (!Number.isSafeInteger(at) || Math.abs(now - at) > relayMaxAgeMs) return false
    const expected = Buffer.from(
      mac(key, message({ ...request, instanceId }, timestamp, nonce)),
      'utf8',
    )
    const given = Buffer.from(signature, 'utf8')
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false
    if (seen.has(nonce)) return false
    if (seen.size > 10_000) {
      for (const [stored, storedAt] of seen) if (now - storedAt > relayMaxAgeMs) seen.delete(stored)
    }
    seen.set(nonce, at)
    return true
  }
}

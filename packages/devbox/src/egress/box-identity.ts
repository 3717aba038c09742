import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto'

/**
 * The header the pods' egress proxy adds to a box's request to sprout.internal: the box id and
 * its token, as the box's proxy URL carries them (docs/decisions/039-egress-proxy-for-pods.md).
 */
export const BOX_IDENTITY_HEADER = 'x-sprout-box-identity'

/** The key boxes' tokens are made with, derived from the instances' shared auth secret. */
export function boxIdentityKeyFrom(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'sprout', 'sprout box identity v1', 32))
}

/** A box's token: what its pod's proxy URL carries, and proves which box a request is from. */
export function boxIdentityToken(key: Buffer, boxId: string): string {
  return createHmac('sha256', key).update(`box\n${boxId}`).digest('base64url')
}

/** `{boxId}:{token}` checked; the box id it proves, or undefined. */
export function verifyBoxIdentity(key: Buffer, header: string | undefined): string | undefined {
  if (!header) return undefined
  const separator = header.lastIndexOf(':')
  if (separator <= 0) return undefined
  const boxId = header.slice(0, separator)
  const given = Buffer.from(header.slice(separator + 1), 'utf8')
  const expected = Buffer.from(boxIdentityToken(key, boxId), 'utf8')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
  return boxId
}

/** The `{boxId}:{token}` of a `Proxy-Authorization: Basic …` header, or undefined. */
export function proxyCredentialOf(header: string | undefined): string | undefined {
  const match = /^basic\s+([a-z0-9+/=]+)$/i.exec(header?.trim() ?? '')
  if (!match?.[1]) return undefined
  const decoded = Buffer.from(match[1], 'base64').toString('utf8')
  const separator = decoded.lastIndexOf(':')
  if (separator <= 0 || separator === decoded.length - 1) return undefined
  // A NUL or a line break would end up in a header Sprout reads.
  if ([...decoded].some((character) => character < ' ' || character === '\x7f')) return undefined
  return decoded
}

/**
 * The token a box's in-box agent answers to (decision 040): from the same key as its identity,
 * for another purpose, so neither token opens what the other does.
 */
export function boxAgentToken(key: Buffer, boxId: string): string {
  return createHmac('sha256', key).update(`agent\n${boxId}`).digest('base64url')
}

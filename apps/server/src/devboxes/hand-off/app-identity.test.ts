// The identity an app's server reads: signed by Sprout's key derived from the auth secret,
// verified by the full-stack starter's own `currentUser(c)` against the key set served as at
// sprout.internal (docs/decisions/046-private-apps-and-app-identity.md).
import { generateKeyPairSync, sign } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { currentUser } from '../../../../../templates/fullstack/server/current-user.ts'
import { type AppVisitor, createAppIdentitySigner } from './app-identity.ts'

const appOrigin = 'http://notes.apps.localhost:3000'
const visitor: AppVisitor = {
  sub: 'user-1',
  name: 'Ada Admin',
  email: 'ada@example.com',
  org: 'org-1',
  role: 'admin',
}
const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url')

describe('app identity tokens', () => {
  const signer = createAppIdentitySigner('the auth secret', 'http://localhost:3000')
  let keysServer: http.Server
  let keyReads = 0
  const app = new Hono().get('/api/me', async (c) => c.json({ user: await currentUser(c) }))

  /** What the app's server makes of a request with these headers, as Sprout's proxy sends it. */
  const userOf = async (identity: string | undefined, host = 'notes.apps.localhost:3000') => {
    const headers: Record<string, string> = { host: '127.0.0.1:4000', 'x-forwarded-host': host }
    if (identity !== undefined) headers['x-sprout-identity'] = identity
    const answer = await app.request('/api/me', { headers })
    return ((await answer.json()) as { user: unknown }).user
  }

  beforeAll(async () => {
    keysServer = http.createServer((request, response) => {
      keyReads += 1
      if (request.url !== '/.well-known/jwks.json') return void response.writeHead(404).end()
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify(signer.jwks))
    })
    await new Promise<void>((resolve) => keysServer.listen(0, '127.0.0.1', resolve))
    const { port } = keysServer.address() as AddressInfo
    process.env.SPROUT_INTERNAL_URL = `http://127.0.0.1:${port}`
  })
  afterAll(() => {
    delete process.env.SPROUT_INTERNAL_URL
    keysServer.close()
  })

  it('is the same key on every instance with the same secret, and another with another', () => {
    const again = createAppIdentitySigner('the auth secret', 'http://localhost:3000')
    expect(again.jwks).toEqual(signer.jwks)
    expect(createAppIdentitySigner('another secret', 'x').jwks.keys[0]?.x).not.toBe(
      signer.jwks.keys[0]?.x,
    )
    expect(signer.jwks.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA' })
    // Public parts only.
    expect(Object.keys(signer.jwks.keys[0] ?? {}).sort()).toEqual(
      ['alg', 'crv', 'kid', 'kty', 'use', 'x'].sort(),
    )
  })

  it('is read by currentUser(c): who, their organization and role', async () => {
    expect(await userOf(signer.tokenFor(visitor, appOrigin))).toEqual({
      id: 'user-1',
      name: 'Ada Admin',
      email: 'ada@example.com',
      organization: 'org-1',
      role: 'admin',
    })
    expect(await userOf(undefined)).toBeNull()
  })

  it('reuses one signed token per visitor and app until little of it is left', () => {
    const now = Date.now()
    const first = signer.tokenFor(visitor, appOrigin, now)
    expect(signer.tokenFor(visitor, appOrigin, now + 30_000)).toBe(first)
    expect(signer.tokenFor(visitor, appOrigin, now + 90_000)).not.toBe(first)
    expect(signer.tokenFor({ ...visitor, role: 'member' }, appOrigin, now)).not.toBe(first)
  })

  it('refuses a token for another app, expired, altered, unsigned, or signed by another key', async () => {
    const token = signer.tokenFor(visitor, appOrigin)
    const [header, claims, signature] = token.split('.') as [string, string, string]
    const decoded = JSON.parse(Buffer.from(claims, 'base64url').toString())
    const withClaims = (changes: object) =>
      `${header}.${base64url(JSON.stringify({ ...decoded, ...changes }))}.${signature}`

    // Replayed to another app's server.
    expect(await userOf(token, 'other.apps.localhost:3000')).toBeNull()
    // Altered: a member made owner keeps the signature of the member.
    expect(await userOf(withClaims({ role: 'owner' }))).toBeNull()
    // Expired, long ago.
    const old = createAppIdentitySigner('the auth secret', 'x')
    expect(await userOf(old.tokenFor(visitor, appOrigin, Date.now() - 3_600_000))).toBeNull()
    // alg none, with no signature.
    const none = base64url(JSON.stringify({ alg: 'none', typ: 'JWT', kid: 'x' }))
    expect(await userOf(`${none}.${claims}.`)).toBeNull()
    // HS256 keyed with the public key, the classic confusion.
    const hs = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: decoded.kid }))
    expect(await userOf(`${hs}.${claims}.${signature}`)).toBeNull()
    // Signed by an attacker's own Ed25519 key under Sprout's key id.
    const { privateKey } = generateKeyPairSync('ed25519')
    const forged = `${header}.${claims}`
    expect(
      await userOf(`${forged}.${base64url(sign(null, Buffer.from(forged), privateKey))}`),
    ).toBeNull()
    // Garbage of every shape.
    for (const junk of ['', 'a.b', 'a.b.c', '....', 'a.%00.b', 'x'.repeat(5000), `${token}.x`]) {
      expect(await userOf(junk), JSON.stringify(junk.slice(0, 20))).toBeNull()
    }
  })

  it('asks for the key set again at most every 30 s for unknown key ids', async () => {
    const before = keyReads
    const header = base64url(JSON.stringify({ alg: 'EdDSA', typ: 'JWT', kid: 'unknown' }))
    for (let index = 0; index < 20; index += 1) {
      expect(await userOf(`${header}.${base64url('{}')}.${base64url('x')}`)).toBeNull()
    }
    expect(keyReads - before).toBeLessThanOrEqual(1)
  })
})

import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { DatabaseHandle } from '@sprout/db/database.ts'
import { jwks } from '@sprout/db/schema/auth.ts'
import { symmetricEncrypt } from 'better-auth/crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { authSecretFrom } from '../config/auth-secret.ts'
import { ConfigError } from '../config/config.ts'
import { createTestDatabase } from '../testing/database.ts'
import { AUTH_SECRET_FILE, loadAuthSecret } from './auth-secret-in-use.ts'

/** Decision 035: a secret that cannot open the stored JWT key stops the start, naming the fix. */
describe('the auth secret in use', () => {
  let database: DatabaseHandle
  let dataDir = ''
  const vaultKey = Buffer.alloc(32, 9).toString('base64')
  const settings = () => ({
    authSecret: undefined,
    sharedDir: undefined,
    vaultKey,
    vaultKeys: [] as string[],
    dataDir,
  })
  const storeJwtKey = async (id: string, secret: string) => {
    // As better-auth's jwt plugin stores its key: the private JWK sealed with the secret.
    const sealed = await symmetricEncrypt({ key: secret, data: '{"kty":"OKP"}' })
    await database.db
      .insert(jwks)
      .values({ id, publicKey: '{}', privateKey: JSON.stringify(sealed), createdAt: new Date() })
  }

  beforeAll(async () => {
    database = await createTestDatabase()
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'sprout-auth-secret-'))
  })
  afterAll(async () => {
    await database?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it("keeps a single instance's key file, and its JWT key opens with it", async () => {
    const secret = await loadAuthSecret(settings(), database.db)
    expect(secret).toBe((await readFile(path.join(dataDir, AUTH_SECRET_FILE), 'utf8')).trim())
    await storeJwtKey('key-1', secret)
    expect(await loadAuthSecret(settings(), database.db)).toBe(secret)
  })

  it('refuses the secret derived from VAULT_KEY once SHARED_DIR is set, saying what to set', async () => {
    const clustered = { ...settings(), sharedDir: '/shared', authSecret: authSecretFrom(vaultKey) }
    const refused = loadAuthSecret(clustered, database.db)
    await expect(refused).rejects.toThrow(ConfigError)
    await expect(refused).rejects.toThrow(/derived from VAULT_KEY.*Set AUTH_SECRET to that secret/)
    const byHand = { ...settings(), authSecret: 'not-the-one-not-the-one-not-the-one-0' }
    await expect(loadAuthSecret(byHand, database.db)).rejects.toThrow(/\(AUTH_SECRET\)/)
  })

  it('deletes the JWT keys of a derived secret once VAULT_KEY was rotated, the old key in VAULT_KEYS', async () => {
    await database.db.delete(jwks)
    const nextKey = Buffer.alloc(32, 10).toString('base64')
    await storeJwtKey('before-rotation', authSecretFrom(vaultKey))
    const rotated = {
      ...settings(),
      sharedDir: '/shared',
      vaultKey: nextKey,
      vaultKeys: [vaultKey],
      authSecret: authSecretFrom(nextKey),
    }
    expect(await loadAuthSecret(rotated, database.db)).toBe(authSecretFrom(nextKey))
    expect(await database.db.select().from(jwks)).toEqual([])
    // A key sealed under a secret no VAULT_KEYS gives is not the rotation's: refused, kept.
    await storeJwtKey('foreign', 'another-secret-another-secret-another-secret')
    await expect(loadAuthSecret(rotated, database.db)).rejects.toThrow(ConfigError)
    expect((await database.db.select().from(jwks)).map((key) => key.id)).toEqual(['foreign'])
  })
})

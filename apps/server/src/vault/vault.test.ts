import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { vaultSecrets } from '@sprout/db/schema/vault-secrets.ts'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, parseConfig } from '../config/config.ts'
import { createKeyring, loadVaultKeyring, masterKeyId } from '../sealing/master-keys.ts'
import { openSecret } from '../sealing/secret-sealing.ts'
import type { TestUser } from '../testing/app-harness.ts'
import { useOrganizationHarness } from '../testing/organization-harness.ts'
import { createVault } from './service.ts'

const newKey = () => randomBytes(32).toString('base64')

describe('the vault', { timeout: 120_000 }, () => {
  const setup = useOrganizationHarness({ organizationName: 'Vault owners' })
  let member: TestUser
  let outsider: TestUser
  let applicationId: string
  let otherApplicationId: string

  const as = (user: TestUser, path: string, init: RequestInit = {}) =>
    setup.harness.request(path, {
      ...init,
      user,
      headers: { 'organization-id': setup.organizationId },
    })
  const vaultPath = (id = applicationId) => `/api/applications/${id}/vault`
  const setSecret = (body: unknown, user = member, id = applicationId) =>
    as(user, vaultPath(id), { method: 'POST', body: JSON.stringify(body) })
  const errorOf = async (response: Response) => ((await response.json()) as { error: string }).error
  const createApplication = () => setup.createApplication('A weather app')
  const rowsOf = (id: string) =>
    setup.harness.database.db.select().from(vaultSecrets).where(eq(vaultSecrets.applicationId, id))

  beforeAll(async () => {
    member = await setup.harness.signUp()
    outsider = await setup.harness.signUp()
    await setup.harness.addMember(setup.organizationId, setup.owner, member)
    await setup.harness.createOrganization(outsider, 'Outsiders')
    applicationId = await createApplication()
    otherApplicationId = await createApplication()
  })

  it('stores, lists (keys only), replaces and deletes secrets for any member', async () => {
    const value = `sk-${randomBytes(12).toString('hex')}`
    const created = await setSecret({ key: 'OPENAI_API_KEY', value })
    expect(created.status).toBe(200)
    const createdText = await created.text()
    expect(createdText).not.toContain(value)
    expect(JSON.parse(createdText)).toMatchObject({ key: 'OPENAI_API_KEY' })

    expect(
      (await setSecret({ key: 'OPENAI_API_KEY', value: 'replaced' }, setup.owner)).status,
    ).toBe(200)
    expect((await setSecret({ key: 'A_SECOND', value: 'two' })).status).toBe(200)
    const listed = await as(setup.owner, vaultPath())
    const listedText = await listed.text()
    expect(listedText).not.toContain('replaced')
    const entries = JSON.parse(listedText) as { key: string; updated_at: string }[]
    expect(entries.map((entry) => entry.key)).toEqual(['A_SECOND', 'OPENAI_API_KEY'])
    for (const entry of entries) {
      expect(Object.keys(entry).sort()).toEqual(['key', 'updated_at'])
      expect(Number.isNaN(Date.parse(entry.updated_at))).toBe(false)
    }
    expect(await setup.harness.created.vault.secretsOf(applicationId)).toEqual({
      A_SECOND: 'two',
      OPENAI_API_KEY: 'replaced',
    })

    expect((await as(member, `${vaultPath()}/A_SECOND`, { method: 'DELETE' })).status).toBe(200)
    const missing = await as(member, `${vaultPath()}/A_SECOND`, { method: 'DELETE' })
    expect(missing.status).toBe(404)
    expect(await errorOf(missing)).toBe('The vault has no secret named A_SECOND')
    expect(await setup.harness.created.vault.secretsOf(applicationId)).toEqual({
      OPENAI_API_KEY: 'replaced',
    })
  })

  it('refuses bad keys and values with a text that says what to do', async () => {
    const cases: [unknown, string | RegExp][] = [
      [{ key: 'TOKEN', value: '' }, 'Value is required'],
      [{ key: 'TOKEN', value: ' \n\t ' }, 'Value is required'],
      [{ key: 'TOKEN', value: 'x'.repeat(64 * 1024 + 1) }, /^Value is larger than 64 KB/],
      [{ key: '', value: 'v' }, 'Key is required'],
      [{ key: 'openai_key', value: 'v' }, /not an environment variable name.*OPENAI_KEY/],
      [{ key: '1PASSWORD', value: 'v' }, /not starting with a digit/],
      [{ key: 'MY-KEY', value: 'v' }, /for example MY_KEY/],
      [{ key: `K${'A'.repeat(128)}`, value: 'v' }, /longer than 128 characters/],
      [{ key: 'VITE_MAPS_KEY', value: 'v' }, /public client.*name it MAPS_KEY.*server route/],
      ...[
        'DATABASE_URL',
        'SENTRY_DSN',
        'SPROUT_APP_TOKEN',
        'SPROUT_INTERNAL_URL',
        'SPROUT_ANYTHING_LATER',
        'HTTPS_PROXY',
        'NODE_USE_ENV_PROXY',
        'NPM_CONFIG_PROXY',
        'NODE_ENV',
        'PORT',
        'PATH',
      ].map((key): [unknown, RegExp] => [
        { key, value: 'v' },
        new RegExp(`^Key "${key}" is reserved: Sprout sets ${key} itself`),
      ]),
      [{ key: 'TOKEN' }, 'Missing field "value"'],
      [{ key: 42, value: 'v' }, /Invalid field "key"/],
    ]
    for (const [body, expected] of cases) {
      const response = await setSecret(body)
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400)
      const error = await errorOf(response)
      if (typeof expected === 'string') expect(error).toBe(expected)
      else expect(error).toMatch(expected)
    }
    // Exactly 64 KB (in UTF-8 bytes) is accepted.
    expect((await setSecret({ key: 'BIG', value: 'é'.repeat(32 * 1024) })).status).toBe(200)
    expect((await rowsOf(applicationId)).map((row) => row.key)).not.toContain('TOKEN')
  })

  it("answers 404 for another organization's application, whatever the call", async () => {
    const headers = { authorization: `Bearer ${outsider.token}` }
    const calls: [string, RequestInit][] = [
      [vaultPath(), {}],
      [vaultPath(), { method: 'POST', body: JSON.stringify({ key: 'STOLEN', value: 'v' }) }],
      [`${vaultPath()}/OPENAI_API_KEY`, { method: 'DELETE' }],
    ]
    for (const [path, init] of calls) {
      const response = await setup.harness.request(path, { ...init, headers })
      expect(response.status).toBe(404)
      expect(await errorOf(response)).toBe('Application not found')
    }
    expect((await rowsOf(applicationId)).map((row) => row.key)).not.toContain('STOLEN')
  })

  it('stores only ciphertext, bound to its application and key', async () => {
    const value = `canary-${randomBytes(16).toString('hex')}`
    await setSecret({ key: 'CANARY', value })
    const [row] = (await rowsOf(applicationId)).filter((candidate) => candidate.key === 'CANARY')
    if (!row) throw new Error('no row')
    expect(JSON.stringify(row)).not.toContain(value)
    expect(Buffer.from(row.iv, 'base64')).toHaveLength(12)
    expect(row.keyId).toBe(setup.harness.created.vault.keyring.current.id)
    const masterKey = setup.harness.created.vault.keyring.current.key
    expect(openSecret(masterKey, applicationId, 'CANARY', row)).toBe(value)
    expect(() => openSecret(masterKey, otherApplicationId, 'CANARY', row)).toThrow()
    expect(() => openSecret(masterKey, applicationId, 'RENAMED', row)).toThrow()

    // Moved to another application's vault by someone with database access: it does not decrypt.
    await setup.harness.database.db
      .insert(vaultSecrets)
      .values({ ...row, applicationId: otherApplicationId })
    await expect(setup.harness.created.vault.secretsOf(otherApplicationId)).rejects.toThrow()
    await setup.harness.database.db
      .delete(vaultSecrets)
      .where(eq(vaultSecrets.applicationId, otherApplicationId))

    // Two values never share an IV, even when equal.
    await setSecret({ key: 'SAME_ONE', value: 'same' })
    await setSecret({ key: 'SAME_TWO', value: 'same' })
    const same = (await rowsOf(applicationId)).filter((candidate) =>
      candidate.key.startsWith('SAME_'),
    )
    expect(new Set(same.map((candidate) => candidate.iv)).size).toBe(2)
    expect(new Set(same.map((candidate) => candidate.ciphertext)).size).toBe(2)
  })

  it('rotates the master key: old values stay readable, then move to the new key', async () => {
    const db = setup.harness.database.db
    const oldKey = setup.harness.created.vault.keyring.current
    const before = await setup.harness.created.vault.secretsOf(applicationId)
    const rotatedKey = newKey()
    const rotated = createVault({
      database: setup.harness.database,
      keyring: createKeyring(rotatedKey, [oldKey.key.toString('base64')]),
    })
    expect(await rotated.secretsOf(applicationId)).toEqual(before)
    const count = (await rowsOf(applicationId)).length
    expect(await rotated.reencrypt()).toBe(count)
    expect(await rotated.reencrypt()).toBe(0)
    const rows = await rowsOf(applicationId)
    expect(new Set(rows.map((row) => row.keyId))).toEqual(
      new Set([masterKeyId(Buffer.from(rotatedKey, 'base64'))]),
    )
    const newOnly = createVault({
      database: setup.harness.database,
      keyring: createKeyring(rotatedKey, []),
    })
    expect(await newOnly.secretsOf(applicationId)).toEqual(before)
    const config = parseConfig({ DATA_DIR: setup.harness.config.dataDir, VAULT_KEY: rotatedKey })
    await expect(loadVaultKeyring(config, db)).resolves.toMatchObject({
      current: { id: masterKeyId(Buffer.from(rotatedKey, 'base64')) },
    })

    // The old key alone (the key file) no longer reads them: a clear start-up error.
    await expect(loadVaultKeyring(setup.harness.config, db)).rejects.toThrow(
      /encrypted with master key [0-9a-f]{16}, which is neither the current key .* VAULT_KEYS/,
    )
    // Back under the harness's key for the other tests.
    const back = createVault({
      database: setup.harness.database,
      keyring: createKeyring(oldKey.key.toString('base64'), [rotatedKey]),
    })
    await back.reencrypt()
    expect(await setup.harness.created.vault.secretsOf(applicationId)).toEqual(before)
  })

  it('refuses to start with a wrong, malformed or missing master key', async () => {
    const db = setup.harness.database.db
    expect(() => parseConfig({ VAULT_KEY: 'too-short' })).toThrow(ConfigError)
    expect(() => parseConfig({ VAULT_KEY: newKey(), VAULT_KEYS: `${newKey()},nope` })).toThrow(
      /VAULT_KEYS: every key must be the base64 of 32 random bytes/,
    )
    const wrong = parseConfig({ DATA_DIR: setup.harness.config.dataDir, VAULT_KEY: newKey() })
    await expect(loadVaultKeyring(wrong, db)).rejects.toThrow(ConfigError)
    await expect(loadVaultKeyring(wrong, db)).rejects.toThrow(/Set VAULT_KEY to the key/i)

    const emptyDataDir = path.join(setup.harness.config.dataDir, 'elsewhere')
    const noFile = parseConfig({ DATA_DIR: emptyDataDir })
    await expect(loadVaultKeyring(noFile, db)).rejects.toThrow(
      /VAULT_KEY is not set and the key file .*vault-key is missing/,
    )
  })

  it('tells the other server processes of a change (LISTEN/NOTIFY)', async () => {
    const other = createVault({
      database: setup.harness.database,
      keyring: setup.harness.created.vault.keyring,
    })
    await other.start()
    const heard: string[] = []
    other.onChange((id) => heard.push(id))
    await other.runSecrets.load(applicationId)
    expect((await setSecret({ key: 'SHARED', value: 'seen-elsewhere' })).status).toBe(200)
    await expect.poll(() => heard).toEqual([applicationId])
    await expect
      .poll(() => other.runSecrets.current(applicationId)?.env.SHARED)
      .toBe('seen-elsewhere')
    await other.stop()
  })

  it("deletes an application's secrets with the application", async () => {
    const doomed = await createApplication()
    await setSecret({ key: 'DOOMED', value: 'gone soon' }, member, doomed)
    expect(await rowsOf(doomed)).toHaveLength(1)
    expect(
      (await as(setup.owner, `/api/applications/${doomed}`, { method: 'DELETE' })).status,
    ).toBe(200)
    expect(await rowsOf(doomed)).toHaveLength(0)
  })
})

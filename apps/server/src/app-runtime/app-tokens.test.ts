import { randomBytes, randomUUID } from 'node:crypto'
import type { DatabaseHandle } from '@sprout/db/database.ts'
import { appRuntimeTokens } from '@sprout/db/schema/app-runtime-tokens.ts'
import { organization } from '@sprout/db/schema/auth.ts'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createKeyring } from '../sealing/master-keys.ts'
import { createTestDatabase } from '../testing/database.ts'
import { seedApplication } from '../testing/seed-conversations.ts'
import { hashOfAppToken, resealAppTokens, UnknownAppTokenKey } from './app-token-sealing.ts'
import { createAppTokens } from './app-tokens.ts'

const newKey = () => randomBytes(32).toString('base64')

/**
 * Decision 035: the app token is sealed with the vault key beside its hash, so two processes on
 * one database (two instances) hand the same token to the servers they start.
 */
describe('app tokens shared by the processes of one database', () => {
  let database: DatabaseHandle
  let organizationId = ''
  const firstKey = newKey()
  const keyring = createKeyring(firstKey, [])

  const newApplication = () => seedApplication(database.db, organizationId)
  const rowOf = async (applicationId: string) => {
    const [row] = await database.db
      .select()
      .from(appRuntimeTokens)
      .where(eq(appRuntimeTokens.applicationId, applicationId))
    return row
  }

  beforeAll(async () => {
    database = await createTestDatabase()
    organizationId = randomUUID()
    await database.db.insert(organization).values({
      id: organizationId,
      name: 'One',
      slug: `org-${organizationId.slice(0, 8)}`,
      createdAt: new Date(),
    })
  })
  afterAll(async () => {
    await database?.close()
  })

  it('hands out the token the first process made, in the second too', async () => {
    const applicationId = await newApplication()
    const first = createAppTokens(database.db, keyring)
    const second = createAppTokens(database.db, keyring)
    const token = await first.tokenFor(applicationId)
    expect(await second.tokenFor(applicationId)).toBe(token)
    expect(await second.ownerOf(token)).toEqual({ applicationId, organizationId })
    expect(await first.ownerOf(token)).toEqual({ applicationId, organizationId })
    const row = await rowOf(applicationId)
    expect(row?.tokenHash).toBe(hashOfAppToken(token))
    expect(JSON.stringify(row)).not.toContain(token)
  })

  it('agrees on one token when both make it at once, and when both meet a row from before sealing', async () => {
    const fresh = await Promise.all(Array.from({ length: 10 }, newApplication))
    const older = await Promise.all(Array.from({ length: 10 }, newApplication))
    // Rows as the version before decision 035 left them: the hash alone.
    for (const applicationId of older) {
      await database.db
        .insert(appRuntimeTokens)
        .values({ applicationId, tokenHash: hashOfAppToken(`old-${applicationId}`) })
    }
    const first = createAppTokens(database.db, keyring)
    const second = createAppTokens(database.db, keyring)
    for (const applicationId of [...fresh, ...older]) {
      const [one, two] = await Promise.all([
        first.tokenFor(applicationId),
        second.tokenFor(applicationId),
      ])
      expect(two).toBe(one)
      expect((await first.ownerOf(one))?.applicationId).toBe(applicationId)
      expect((await rowOf(applicationId))?.sealedToken).not.toBeNull()
    }
    expect(await first.ownerOf(`old-${older[0]}`)).toBeUndefined()
  })

  it('never hands out a sealed value that was altered or moved from another application', async () => {
    const [altered, source, target] = [
      await newApplication(),
      await newApplication(),
      await newApplication(),
    ]
    const maker = createAppTokens(database.db, keyring)
    const alteredToken = await maker.tokenFor(altered)
    const sourceToken = await maker.tokenFor(source)
    await maker.tokenFor(target)
    const sealed = (await rowOf(altered))?.sealedToken ?? ''
    const last = sealed.at(-3) === 'A' ? 'B' : 'A'
    await database.db
      .update(appRuntimeTokens)
      .set({ sealedToken: `${sealed.slice(0, -3)}${last}${sealed.slice(-2)}` })
      .where(eq(appRuntimeTokens.applicationId, altered))
    await database.db
      .update(appRuntimeTokens)
      .set({ sealedToken: (await rowOf(source))?.sealedToken ?? null })
      .where(eq(appRuntimeTokens.applicationId, target))

    const later = createAppTokens(database.db, keyring)
    const replaced = await later.tokenFor(altered)
    expect(replaced).not.toBe(alteredToken)
    expect(replaced).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect((await later.ownerOf(replaced))?.applicationId).toBe(altered)
    // The process that made the first token hands out the new one to the next server it starts.
    expect(await maker.tokenFor(altered)).toBe(replaced)
    const targetToken = await later.tokenFor(target)
    expect(targetToken).not.toBe(sourceToken)
    expect((await later.ownerOf(targetToken))?.applicationId).toBe(target)
    expect((await later.ownerOf(sourceToken))?.applicationId).toBe(source)
  })

  it('keeps the token through a key rotation, and refuses to replace one no configured key opens', async () => {
    const applicationId = await newApplication()
    const token = await createAppTokens(database.db, keyring).tokenFor(applicationId)
    const before = (await rowOf(applicationId))?.sealedToken

    // VAULT_KEY swapped without the old key in VAULT_KEYS: the token is neither handed out nor replaced.
    const withoutOld = createKeyring(newKey(), [])
    await expect(createAppTokens(database.db, withoutOld).tokenFor(applicationId)).rejects.toThrow(
      UnknownAppTokenKey,
    )
    expect((await rowOf(applicationId))?.sealedToken).toBe(before)

    // docs/product/vault.md "Master key": the new key, the old one in VAULT_KEYS, then without it.
    const nextKey = newKey()
    const rotating = createKeyring(nextKey, [firstKey])
    expect(await createAppTokens(database.db, rotating).tokenFor(applicationId)).toBe(token)
    expect(await resealAppTokens(database.db, rotating)).toBeGreaterThanOrEqual(1)
    expect((await rowOf(applicationId))?.sealedToken).toMatch(
      new RegExp(`^${rotating.current.id}\\.`),
    )
    expect(await resealAppTokens(database.db, rotating)).toBe(0)
    const rotated = createKeyring(nextKey, [])
    expect(await createAppTokens(database.db, rotated).tokenFor(applicationId)).toBe(token)
  })
})

import { randomBytes } from 'node:crypto'
import { integrationConnections, integrationDefinitions } from '@sprout/db/schema/integrations.ts'
import { describe, expect, it } from 'vitest'
import { createKeyring } from '../sealing/master-keys.ts'
import { useTestApp } from '../testing/use-app-harness.ts'
import { resealIntegrationSecrets } from './reseal.ts'
import { connectionOwner, definitionOwner, seal, unseal } from './sealing.ts'

describe('integration secrets on key rotation', { timeout: 120_000 }, () => {
  const setup = useTestApp()

  it('moves client secrets and tokens under VAULT_KEY, once, and they still open', async () => {
    const admin = await setup.harness.signUpAdmin()
    const organizationId = await setup.harness.createOrganization(admin, 'Rotators')
    const created = await setup.harness.request('/api/admin/integrations', {
      method: 'POST',
      user: admin,
      body: JSON.stringify({ preset: 'linear', client_id: 'id', client_secret: 'old-secret' }),
    })
    expect(created.status).toBe(201)
    const oldKeyring = setup.harness.created.integrationDeps.keyring
    const owner = connectionOwner(organizationId, 'linear')
    await setup.harness.database.db.insert(integrationConnections).values({
      organizationId,
      serviceName: 'linear',
      accessToken: seal(oldKeyring, owner, 'access_token', 'the-access-token'),
      refreshToken: seal(oldKeyring, owner, 'refresh_token', 'the-refresh-token'),
      scopes: ['read'],
      updatedAt: new Date(),
    })
    const rotated = createKeyring(randomBytes(32).toString('base64'), [
      oldKeyring.current.key.toString('base64'),
    ])
    const db = setup.harness.database.db
    expect(await resealIntegrationSecrets(db, rotated)).toBe(3)
    expect(await resealIntegrationSecrets(db, rotated)).toBe(0)
    const [definition] = await db.select().from(integrationDefinitions)
    const [connection] = await db.select().from(integrationConnections)
    if (!definition || !connection?.refreshToken) throw new Error('rows missing')
    expect(definition.clientSecret.keyId).toBe(rotated.current.id)
    expect(
      unseal(rotated, definitionOwner('linear'), 'client_secret', definition.clientSecret),
    ).toBe('old-secret')
    expect(unseal(rotated, owner, 'access_token', connection.accessToken)).toBe('the-access-token')
    expect(unseal(rotated, owner, 'refresh_token', connection.refreshToken)).toBe(
      'the-refresh-token',
    )
  })
})

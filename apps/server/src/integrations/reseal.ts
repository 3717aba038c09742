import type { Database } from '@sprout/db/database.ts'
import {
  integrationConnections,
  integrationDefinitions,
  oauthStates,
  type SealedColumn,
} from '@sprout/db/schema/integrations.ts'
import { and, eq } from 'drizzle-orm'
import type { VaultKeyring } from '../sealing/master-keys.ts'
import { connectionOwner, definitionOwner, seal, stateOwner, unseal } from './sealing.ts'

/**
 * Key rotation (docs/product/vault.md "Master key"; decision 018): every integration value still
 * sealed under an older key moves to VAULT_KEY, as the vault's values do. Values no configured
 * key opens are left alone. Returns how many values were sealed again.
 */
export async function resealIntegrationSecrets(db: Database, keyring: VaultKeyring) {
  const current = keyring.current.id
  const stale = (sealed: SealedColumn | null): sealed is SealedColumn =>
    sealed !== null && sealed.keyId !== current && keyring.byId.has(sealed.keyId)
  const again = (owner: string, field: string, sealed: SealedColumn) =>
    seal(keyring, owner, field, unseal(keyring, owner, field, sealed))
  let resealed = 0

  for (const row of await db.select().from(integrationDefinitions)) {
    if (!stale(row.clientSecret)) continue
    const owner = definitionOwner(row.serviceName)
    await db
      .update(integrationDefinitions)
      .set({ clientSecret: again(owner, 'client_secret', row.clientSecret) })
      .where(eq(integrationDefinitions.serviceName, row.serviceName))
    resealed++
  }
  for (const row of await db.select().from(integrationConnections)) {
    const owner = connectionOwner(row.organizationId, row.serviceName)
    const accessToken = stale(row.accessToken)
      ? again(owner, 'access_token', row.accessToken)
      : null
    const refreshToken = stale(row.refreshToken)
      ? again(owner, 'refresh_token', row.refreshToken)
      : null
    if (!accessToken && !refreshToken) continue
    // Only if no refresh replaced the tokens meanwhile (its values are under VAULT_KEY already).
    await db
      .update(integrationConnections)
      .set({ ...(accessToken ? { accessToken } : {}), ...(refreshToken ? { refreshToken } : {}) })
      .where(
        and(
          eq(integrationConnections.organizationId, row.organizationId),
          eq(integrationConnections.serviceName, row.serviceName),
          eq(integrationConnections.updatedAt, row.updatedAt),
        ),
      )
    resealed += (accessToken ? 1 : 0) + (refreshToken ? 1 : 0)
  }
  for (const row of await db.select().from(oauthStates)) {
    if (!stale(row.codeVerifier)) continue
    const codeVerifier = again(stateOwner(row.stateHash), 'code_verifier', row.codeVerifier)
    await db
      .update(oauthStates)
      .set({ codeVerifier })
      .where(eq(oauthStates.stateHash, row.stateHash))
    resealed++
  }
  return resealed
}

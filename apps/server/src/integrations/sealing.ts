import type { SealedColumn } from '@sprout/db/schema/integrations.ts'
import type { VaultKeyring } from '../sealing/master-keys.ts'
import { openSecret, sealSecret } from '../sealing/secret-sealing.ts'

/**
 * Integration secrets (client secrets, tokens, PKCE verifiers) are sealed like vault values
 * (docs/product/vault.md "Storage"; decision 018): the owner and the field's name are the
 * associated data, so a value copied to another row or field no longer opens.
 */
export function seal(keyring: VaultKeyring, owner: string, field: string, value: string) {
  const sealed = sealSecret(keyring.current.key, owner, field, value)
  return { ...sealed, keyId: keyring.current.id } satisfies SealedColumn
}

/** Throws when no configured key sealed it, or the value was altered or moved. */
export function unseal(
  keyring: VaultKeyring,
  owner: string,
  field: string,
  sealed: SealedColumn,
): string {
  const key = keyring.byId.get(sealed.keyId)
  if (!key) throw new Error(`No configured vault key ${sealed.keyId} can open ${owner} ${field}`)
  return openSecret(key, owner, field, sealed)
}

/** Associated-data owners: one definition, one organization's connection, one state. */
export const definitionOwner = (serviceName: string) => `integration:${serviceName}`
export const connectionOwner = (organizationId: string, serviceName: string) =>
  `connection:${organizationId}:${serviceName}`
export const stateOwner = (stateHash: string) => `oauth-state:${stateHash}`

import { hkdfSync } from 'node:crypto'

/**
 * The auth secret of several instances without AUTH_SECRET: derived from VAULT_KEY, which they
 * share already, with an info string of its own so it is unrelated to the relay's key
 * (docs/decisions/035-shared-app-tokens-and-auth-secret.md).
 */
export function authSecretFrom(vaultKey: string): string {
  return Buffer.from(
    hkdfSync('sha256', Buffer.from(vaultKey, 'base64'), 'sprout', 'sprout auth secret v1', 32),
  ).toString('base64url')
}

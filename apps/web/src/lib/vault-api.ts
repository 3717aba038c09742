import type { VaultEntry } from '@sprout/protocol/api/vault.ts'
import { apiRequest } from './api-client.ts'
import { API_REQUEST_FAILED, ApiError } from './api-error.ts'

/**
 * An application's vault (docs/product/vault.md "Calls"), shared by the vault modal and the chat's
 * secret widget: both read and refresh the same query, so a secret set in one shows in the other.
 */
export const vaultQueryKey = (applicationId: string) => ['vault', applicationId] as const

const vaultPath = (applicationId: string) =>
  `/api/applications/${encodeURIComponent(applicationId)}/vault`

export function listSecretKeys(applicationId: string): Promise<VaultEntry[]> {
  return apiRequest<VaultEntry[]>(vaultPath(applicationId))
}

/** Creates or replaces a secret; the value is never read back. */
export function storeSecret(applicationId: string, key: string, value: string): Promise<unknown> {
  return apiRequest(vaultPath(applicationId), { method: 'POST', body: { key, value } })
}

export function deleteSecret(applicationId: string, key: string): Promise<unknown> {
  return apiRequest(`${vaultPath(applicationId)}/${encodeURIComponent(key)}`, {
    method: 'DELETE',
  })
}

/** The server's own text when it gave one (docs/product/error-texts.md "Vault"), else `fallback`. */
export function vaultErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status !== 0 && error.message !== API_REQUEST_FAILED) {
    return error.message
  }
  return fallback
}

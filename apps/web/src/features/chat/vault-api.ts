import { apiRequest } from '../../lib/api-client.ts'

/**
 * Stores a secret in the application's vault (docs/product/vault.md); the value is never read back.
 */
export function storeSecret(applicationId: string, key: string, value: string): Promise<unknown> {
  return apiRequest(`/api/applications/${encodeURIComponent(applicationId)}/vault`, {
    method: 'POST',
    body: { key, value },
  })
}

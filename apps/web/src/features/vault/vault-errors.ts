import { ApiError } from '../../lib/api-error.ts'
import { vaultErrorMessage } from '../../lib/vault-api.ts'

/** docs/product/vault.md "Vault modal": the server's text first, then the screen's own. */
export const ADD_SECRET_FAILED = 'Failed to add secret'
export const DELETE_SECRET_FAILED = 'Failed to delete secret'

/** Unreachable: 'Failed to load vault keys'; an answer without a text: 'Failed to fetch vault keys'. */
export function loadErrorMessage(error: unknown): string {
  const unreachable = !(error instanceof ApiError) || error.status === 0
  return vaultErrorMessage(
    error,
    unreachable ? 'Failed to load vault keys' : 'Failed to fetch vault keys',
  )
}

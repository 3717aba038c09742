import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { deleteSecret, listSecretKeys, storeSecret, vaultQueryKey } from '../../lib/vault-api.ts'

/** The vault's keys, loaded while the modal is open, and the calls that change them. */
export function useVault(applicationId: string, enabled: boolean) {
  const queryClient = useQueryClient()
  const refresh = () => queryClient.invalidateQueries({ queryKey: vaultQueryKey(applicationId) })
  const keys = useQuery({
    queryKey: vaultQueryKey(applicationId),
    queryFn: () => listSecretKeys(applicationId),
    enabled,
  })
  const add = useMutation({
    mutationFn: ({ key, value }: { key: string; value: string }) =>
      storeSecret(applicationId, key, value),
    onSuccess: refresh,
  })
  const remove = useMutation({
    mutationFn: (key: string) => deleteSecret(applicationId, key),
    onSuccess: refresh,
  })
  return { keys, add, remove }
}

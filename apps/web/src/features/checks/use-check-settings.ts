import type { CheckSettingsResponse } from '@sprout/protocol/api/checks.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { checkSettingsQueryKey, fetchCheckSettings, updateCheckSettings } from './checks-api.ts'

/** The organization's automatic repair setting (docs/product/checks.md "Setting"). */
export function useCheckSettings(organizationId: string) {
  const queryClient = useQueryClient()
  const queryKey = checkSettingsQueryKey(organizationId)
  const settings = useQuery({ queryKey, queryFn: () => fetchCheckSettings(organizationId) })
  const update = useMutation({
    mutationFn: (autoRepair: boolean) => updateCheckSettings(organizationId, autoRepair),
    onSuccess: (answer) => queryClient.setQueryData<CheckSettingsResponse>(queryKey, answer),
  })
  return { settings, update }
}

import type { Integration } from '@sprout/protocol/api/integrations.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import {
  disconnectIntegration,
  integrationsQueryKey,
  listIntegrations,
  startConnection,
} from './integration-api.ts'

/** The organization's integrations, and connecting and disconnecting them. */
export function useIntegrations(organizationId: string) {
  const queryClient = useQueryClient()
  const queryKey = [...integrationsQueryKey, organizationId]
  const list = useQuery({ queryKey, queryFn: listIntegrations })

  // Connect leaves the page for the service's consent screen; the callback brings the user back.
  const connect = useMutation({
    mutationFn: startConnection,
    onSuccess: ({ authorization_url }) => window.location.assign(authorization_url),
  })

  const disconnect = useMutation({
    mutationFn: disconnectIntegration,
    onSuccess: (_answer, service) => {
      queryClient.setQueryData<Integration[]>(queryKey, (current) =>
        current?.map((integration) =>
          integration.service_name === service
            ? { ...integration, connected: false, needs_reconnect: false }
            : integration,
        ),
      )
    },
  })

  return { list, connect, disconnect }
}

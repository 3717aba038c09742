import { SECRET_CONFIRMATION_MODEL_ID } from '@sprout/protocol/constants.ts'
import { secretSetMessage } from '@sprout/protocol/text/secret-request.ts'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import { modelsQueryOptions } from '../../lib/models-query.ts'
import { listSecretKeys, vaultQueryKey } from '../../lib/vault-api.ts'
import { SecretRequestWidget } from './secret-request-widget.tsx'
import type { BuilderChat } from './use-builder-chat.ts'

/** The chat's current send and model, read when a secret is saved. */
export type LatestSend = { readonly current: { send: BuilderChat['send']; model: string } }

/**
 * Renders the transcript's secret requests; a saved secret is confirmed to the agent. Stable for
 * the memoised transcript while the vault's keys stay the same.
 */
export function useSecretRequestRenderer(applicationId: string, latest: LatestSend) {
  const queryClient = useQueryClient()
  // A request whose key the vault already holds shows as saved (after a reload, too).
  const vault = useQuery({
    queryKey: vaultQueryKey(applicationId),
    queryFn: () => listSecretKeys(applicationId),
  })
  const savedKeys = vault.data?.map((entry) => entry.key).join('\n') ?? ''
  // The confirmation goes with the small model when it can run, else with the chat's: once.
  const models = useQuery(modelsQueryOptions)
  const confirmationModelReady = models.data?.some(
    (model) => model.model === SECRET_CONFIRMATION_MODEL_ID && model.available,
  )

  return useCallback(
    (key: string) => (
      <SecretRequestWidget
        applicationId={applicationId}
        secretKey={key}
        alreadySaved={savedKeys.split('\n').includes(key)}
        onSaved={(savedKey) => {
          void queryClient.invalidateQueries({ queryKey: vaultQueryKey(applicationId) })
          latest.current.send(
            secretSetMessage(savedKey),
            confirmationModelReady ? SECRET_CONFIRMATION_MODEL_ID : latest.current.model,
          )
        }}
      />
    ),
    [applicationId, savedKeys, queryClient, latest, confirmationModelReady],
  )
}

import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '../../lib/api-client.ts'
import { type DeployOutcome, deployAnswerOutcome, deployErrorOutcome } from './deploy-outcome.ts'

/** Builds the app in its dev box and publishes it (several seconds); never rejects. */
export async function deployApplication(applicationId: string): Promise<DeployOutcome> {
  try {
    const answer = await apiRequest(
      `/api/applications/${encodeURIComponent(applicationId)}/deploy`,
      { method: 'POST' },
    )
    return deployAnswerOutcome(answer)
  } catch (error) {
    return deployErrorOutcome(error)
  }
}

export function useDeployApplication(onDeployed: (prodUrl: string) => void) {
  return useMutation({
    mutationFn: deployApplication,
    onSuccess: (outcome) => {
      if (outcome.kind === 'success') onDeployed(outcome.prodUrl)
    },
  })
}

import { deployResponseSchema } from '@sprout/protocol/api/applications.ts'
import { API_REQUEST_FAILED, ApiError } from '../../lib/api-error.ts'

// docs/product/deploys.md "Texts".
export const DEPLOY_SUCCEEDED = 'Deployment initiated successfully!'
export const DEPLOY_NOT_INITIATED = 'Failed to initiate deployment'
const UNKNOWN_ERROR = 'Unknown error'

export type DeployOutcome =
  | { kind: 'success'; message: string; prodUrl: string }
  | { kind: 'failure'; message: string }

const failed = (detail: string | undefined): DeployOutcome => ({
  kind: 'failure',
  message: `Deployment failed: ${detail?.trim() || UNKNOWN_ERROR}`,
})

/** What the server answered to a deploy, in the words the user sees. */
export function deployAnswerOutcome(answer: unknown): DeployOutcome {
  const parsed = deployResponseSchema.safeParse(answer)
  if (parsed.success) {
    return { kind: 'success', message: DEPLOY_SUCCEEDED, prodUrl: parsed.data.prod_url }
  }
  const error = (answer as { error?: unknown } | undefined)?.error
  return failed(typeof error === 'string' ? error : undefined)
}

/** A deploy call that failed: the server's error (the build's output) or it never got there. */
export function deployErrorOutcome(error: unknown): DeployOutcome {
  if (error instanceof ApiError && error.status > 0) {
    return failed(error.message === API_REQUEST_FAILED ? undefined : error.message)
  }
  return { kind: 'failure', message: DEPLOY_NOT_INITIATED }
}

import {
  createExplorationResponseSchema,
  type Exploration,
  type ExplorationMessageRequest,
  explorationSchema,
} from '@sprout/protocol/api/conversations.ts'
import { apiRequest } from '../../lib/api-client.ts'
import { getCurrentOrganizationId } from '../../lib/current-organization.ts'

const base = (explorationId: string) => `/api/explorations/${encodeURIComponent(explorationId)}`

/** Starts an exploration, optionally with its first message; answers its id. */
export async function createExploration(body: { message?: string; model?: string }) {
  return createExplorationResponseSchema.parse(
    await apiRequest('/api/explorations', { method: 'POST', body }),
  )
}

/** The exploration, with the idea as the agent last summarised it (for 'Build this'). */
export async function getExploration(explorationId: string): Promise<Exploration> {
  return explorationSchema.parse(await apiRequest(base(explorationId)))
}

export function sendExplorationMessage(explorationId: string, body: ExplorationMessageRequest) {
  return apiRequest<unknown>(`${base(explorationId)}/message`, { method: 'POST', body })
}

export function interruptExploration(explorationId: string) {
  return apiRequest<unknown>(`${base(explorationId)}/interrupt`, { method: 'POST' })
}

/** Retries after an error, like the builder's continue. */
export function continueExploration(explorationId: string) {
  return apiRequest<unknown>(`${base(explorationId)}/continue`, { method: 'POST' })
}

/**
 * The exploration's event stream: a POST whose response body is server-sent events
 * (docs/product/api.md), resuming after `lastSeq` when given. Read by the shared transport, never
 * parsed here. Sent with the session cookie, so no short-lived token has to be kept fresh.
 */
export function requestExplorationStream(
  explorationId: string,
  lastSeq: number | null,
  signal: AbortSignal,
): Promise<Response> {
  const headers = new Headers({
    Accept: 'text/event-stream',
    'Content-Type': 'application/json',
  })
  const organizationId = getCurrentOrganizationId()
  if (organizationId) headers.set('Organization-ID', organizationId)
  return fetch(`${base(explorationId)}/listen`, {
    method: 'POST',
    headers,
    body: JSON.stringify(lastSeq === null ? {} : { last_event_id: lastSeq }),
    credentials: 'same-origin',
    signal,
  })
}

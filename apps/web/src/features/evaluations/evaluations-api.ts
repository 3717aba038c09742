import {
  type AdminConversationList,
  adminConversationListSchema,
  type CreateEvaluationRequest,
  createEvaluationResponseSchema,
  type EvaluationStatusResponse,
  evaluationStatusResponseSchema,
  type PromptTemplate,
  promptTemplateListSchema,
} from '@sprout/protocol/api/evaluations.ts'
import { apiRequest } from '../../lib/api-client.ts'

const base = '/api/admin/conversation-evals'
const evaluationPath = (id: string) => `${base}/${encodeURIComponent(id)}`

export async function fetchAdminConversations(
  cursor: string | undefined,
  limit: number,
): Promise<AdminConversationList> {
  const query = new URLSearchParams({ limit: String(limit) })
  if (cursor) query.set('cursor', cursor)
  return adminConversationListSchema.parse(await apiRequest(`/api/admin/conversations?${query}`))
}

export async function fetchPromptTemplates(): Promise<PromptTemplate[]> {
  return promptTemplateListSchema.parse(await apiRequest(`${base}/prompts`))
}

export async function createEvaluation(request: CreateEvaluationRequest): Promise<string> {
  const answer = await apiRequest(base, { method: 'POST', body: request })
  return createEvaluationResponseSchema.parse(answer).eval_id
}

export async function startEvaluation(id: string): Promise<void> {
  await apiRequest(`${evaluationPath(id)}/start`, { method: 'POST' })
}

export async function fetchEvaluationStatus(id: string): Promise<EvaluationStatusResponse> {
  return evaluationStatusResponseSchema.parse(await apiRequest(`${evaluationPath(id)}/status`))
}

/** The raw results as text/plain, opened in a new tab by 'View Full Results'. */
export function rawResultsUrl(id: string): string {
  return `${evaluationPath(id)}/results/raw`
}

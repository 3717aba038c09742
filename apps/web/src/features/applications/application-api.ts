import {
  type CreateApplicationRequest,
  createApplicationResponseSchema,
  editorReadySchema,
} from '@sprout/protocol/api/applications.ts'
import type { z } from 'zod'
import { apiRequest } from '../../lib/api-client.ts'

const applicationPath = (applicationId: string) =>
  `/api/applications/${encodeURIComponent(applicationId)}`

/** POST /api/applications: the new application's id. */
export async function createApplication(input: CreateApplicationRequest): Promise<string> {
  const answer = await apiRequest('/api/applications', { method: 'POST', body: input })
  return createApplicationResponseSchema.parse(answer).id
}

export async function deleteApplication(applicationId: string): Promise<void> {
  await apiRequest(applicationPath(applicationId), { method: 'DELETE' })
}

export type EditorReadiness = z.infer<typeof editorReadySchema>

export async function fetchEditorReady(
  applicationId: string,
  signal?: AbortSignal,
): Promise<EditorReadiness> {
  const answer = await apiRequest<unknown>(`${applicationPath(applicationId)}/editor-ready`, {
    signal,
  })
  return editorReadySchema.parse(answer)
}

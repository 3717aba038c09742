import type { UpdateApplicationRequest } from '@sprout/protocol/api/app-visibility.ts'
import {
  applicationSchema,
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

const applicationAccessSchema = applicationSchema.pick({ visibility: true, allowed_emails: true })
export type ApplicationAccess = z.infer<typeof applicationAccessSchema>

/** PATCH /api/applications/{id}: who may open the app's deploy from now on. */
export async function updateApplicationAccess(
  applicationId: string,
  request: UpdateApplicationRequest,
): Promise<ApplicationAccess> {
  const answer = await apiRequest(applicationPath(applicationId), {
    method: 'PATCH',
    body: request,
  })
  return applicationAccessSchema.parse(answer)
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

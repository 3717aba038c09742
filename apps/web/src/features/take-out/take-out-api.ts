import { type Integration, integrationListSchema } from '@sprout/protocol/api/integrations.ts'
import type { GitRemote, GitRemoteRequest, PushResult } from '@sprout/protocol/api/versions.ts'
import { apiRequest } from '../../lib/api-client.ts'
import { ApiError } from '../../lib/api-error.ts'
import { getCurrentOrganizationId } from '../../lib/current-organization.ts'
import { saveResponse } from '../../lib/save-file.ts'

export const DOWNLOAD_FAILED = 'The download failed. Try again.'

export const gitRemoteQueryKey = (applicationId: string) =>
  ['applications', applicationId, 'git-remote'] as const

export const readGitRemote = (applicationId: string) =>
  apiRequest<GitRemote>(`/api/applications/${applicationId}/git-remote`)

export const saveGitRemote = (applicationId: string, input: GitRemoteRequest) =>
  apiRequest<GitRemote>(`/api/applications/${applicationId}/git-remote`, {
    method: 'PUT',
    body: input,
  })

/** The organization's connected integrations, whose token may push instead of a pasted one. */
export async function connectedIntegrations(): Promise<Integration[]> {
  const all = integrationListSchema.parse(await apiRequest('/api/integrations'))
  return all.filter((integration) => integration.connected && !integration.needs_reconnect)
}

export const pushToGit = (applicationId: string) =>
  apiRequest<PushResult>(`/api/applications/${applicationId}/push`, { method: 'POST', body: {} })

/**
 * docs/product/versions.md "Download": the call needs the Organization-ID header, so the zip is
 * fetched and handed to the browser as a file, named as the server names it.
 */
export async function downloadZip(applicationId: string): Promise<void> {
  const headers = new Headers()
  const organizationId = getCurrentOrganizationId()
  if (organizationId) headers.set('Organization-ID', organizationId)
  const response = await fetch(`/api/applications/${applicationId}/download`, {
    headers,
    credentials: 'same-origin',
  })
  if (!response.ok) throw new ApiError(DOWNLOAD_FAILED, response.status)
  await saveResponse(response, 'app.zip')
}

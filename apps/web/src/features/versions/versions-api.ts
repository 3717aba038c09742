import type {
  RestoreVersionRequest,
  RestoreVersionResponse,
  VersionDiff,
  VersionPage,
} from '@sprout/protocol/api/versions.ts'
import { apiRequest } from '../../lib/api-client.ts'

/** docs/product/versions.md: an app's versions, one version's diff, and restoring one. */
const versionsPath = (applicationId: string) =>
  `/api/applications/${encodeURIComponent(applicationId)}/versions`

/** One page of versions, newest first; `cursor` is the previous page's `nextCursor`. */
export function listVersions(applicationId: string, cursor?: string): Promise<VersionPage> {
  const query = cursor ? `?${new URLSearchParams({ cursor })}` : ''
  return apiRequest<VersionPage>(`${versionsPath(applicationId)}${query}`)
}

/** What the version changed, against the version before it. */
export function getVersionDiff(applicationId: string, versionId: string): Promise<VersionDiff> {
  return apiRequest<VersionDiff>(
    `${versionsPath(applicationId)}/${encodeURIComponent(versionId)}/diff`,
  )
}

/** Makes a new version whose files are this version's; the server says why when it refuses. */
export async function restoreVersion(
  applicationId: string,
  versionId: string,
  request: RestoreVersionRequest,
): Promise<RestoreVersionResponse> {
  return apiRequest<RestoreVersionResponse>(
    `${versionsPath(applicationId)}/${encodeURIComponent(versionId)}/restore`,
    { method: 'POST', body: request },
  )
}

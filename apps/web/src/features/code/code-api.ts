import type {
  FileContent,
  FileTreeResponse,
  SaveFileRequest,
  SaveFileResponse,
} from '@sprout/protocol/api/versions.ts'
import { apiRequest } from '../../lib/api-client.ts'

/** docs/product/versions.md "Code": the workspace's folders, a file, and saving it. */
const filesPath = (applicationId: string) =>
  `/api/applications/${encodeURIComponent(applicationId)}/files`

/** One folder's entries (the root for `''`), folders first. */
export function listFolder(applicationId: string, path: string): Promise<FileTreeResponse> {
  const query = path ? `?${new URLSearchParams({ path })}` : ''
  return apiRequest<FileTreeResponse>(`${filesPath(applicationId)}${query}`)
}

/** A file with its hash; `readOnly` while the agent is working. */
export function readFile(applicationId: string, path: string): Promise<FileContent> {
  return apiRequest<FileContent>(
    `${filesPath(applicationId)}/content?${new URLSearchParams({ path })}`,
  )
}

/** Saves a file; a 409 means the agent is working, or the file changed since `baseHash`. */
export function saveFile(
  applicationId: string,
  request: SaveFileRequest,
): Promise<SaveFileResponse> {
  return apiRequest<SaveFileResponse>(`${filesPath(applicationId)}/content`, {
    method: 'PUT',
    body: request,
  })
}

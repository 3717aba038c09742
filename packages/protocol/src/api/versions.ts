import { z } from 'zod'
import { SERVICE_NAME_PATTERN } from './integrations.ts'

// docs/product/versions.md: an app's versions (checkpoints), their diffs, restoring one, the
// Code tab's files, Download and Push to Git. One contract for the server and the web.

/** What made a version. */
export const VERSION_KINDS = ['run', 'edit', 'restore', 'start'] as const
export type VersionKind = (typeof VERSION_KINDS)[number]

export type VersionFileChange = {
  path: string
  /** Added and removed lines; null for a binary file. */
  added: number | null
  removed: number | null
  status: 'added' | 'modified' | 'deleted' | 'renamed'
  /** The old path of a renamed file. */
  previousPath?: string
}

/** GET /api/applications/{id}/versions: newest first. */
export type Version = {
  id: string
  /** 1 for the app's first version, counting up. */
  number: number
  kind: VersionKind
  commitId: string
  /** The user message that caused it (first line), 'Edited by {name}: {files}', or 'Restored version {n}'. */
  title: string
  runId: string | null
  conversationId: string | null
  /** For a restore: the version whose files it brought back. */
  restoredNumber: number | null
  author: { id: string; name: string } | null
  createdAt: string
  files: VersionFileChange[]
  /** The preview database was snapshotted with it (can be restored with the code). */
  hasDataSnapshot: boolean
}

export type VersionPage = { versions: Version[]; nextCursor: string | null; total: number }

export const VERSIONS_PAGE_SIZE = 50

/** One file of a diff: unified hunks as git prints them, cut when large. */
export type DiffFile = VersionFileChange & {
  binary: boolean
  /** The unified diff text of this file (`@@` hunks), empty for a binary file. */
  patch: string
  /** Lines in `patch`; files past DIFF_FILE_COLLAPSE_LINES start collapsed ('Show'). */
  lines: number
  /** The patch was longer than DIFF_FILE_MAX_BYTES and is cut. */
  truncated: boolean
}

export const DIFF_FILE_COLLAPSE_LINES = 400
export const DIFF_FILE_MAX_BYTES = 512 * 1024

/** GET /api/applications/{id}/versions/{versionId}/diff: the version against the one before. */
export type VersionDiff = { version: Version; files: DiffFile[] }

export const restoreVersionRequestSchema = z.strictObject({
  /** Also put back the preview database as it was (when the version has a snapshot). */
  restoreData: z.boolean().optional(),
})
export type RestoreVersionRequest = z.infer<typeof restoreVersionRequestSchema>

/** POST .../versions/{versionId}/restore → the new version the restore made. */
export type RestoreVersionResponse = { version: Version }

/** GET /api/applications/{id}/files?path=: one folder's entries (lazy), hidden folders left out. */
export type FileTreeEntry = {
  name: string
  path: string
  type: 'file' | 'directory'
  size?: number
}
export type FileTreeResponse = { path: string; entries: FileTreeEntry[] }

/** GET /api/applications/{id}/files/content?path=: a file and its content hash (for Save). */
export type FileContent = { path: string; content: string; hash: string; readOnly: boolean }

export const FILE_PATH_MAX = 1024
export const saveFileRequestSchema = z.strictObject({
  path: z.string().min(1).max(FILE_PATH_MAX),
  content: z.string(),
  /** The hash the editor opened; a file changed since answers 409 unless `overwrite`. */
  baseHash: z.string().max(128).optional(),
  overwrite: z.boolean().optional(),
})
export type SaveFileRequest = z.infer<typeof saveFileRequestSchema>
export type SaveFileResponse = { path: string; hash: string }

/** PUT /api/applications/{id}/git-remote: where 'Push to Git' pushes. */
export const gitRemoteRequestSchema = z.strictObject({
  /** Checked by the server, which says what is wrong (an SSH address, not a URL…). */
  url: z.string().max(2048),
  branch: z.string().min(1).max(200).optional(),
  /** Write-only; omitted keeps the stored one. */
  token: z.string().min(1).max(4096).optional(),
  /**
   * An integration of the organization (e.g. `github`) whose connection's access token pushes,
   * instead of a stored token; null goes back to the token, omitted keeps the choice.
   */
  integration: z.string().regex(SERVICE_NAME_PATTERN).nullable().optional(),
})
export type GitRemoteRequest = z.infer<typeof gitRemoteRequestSchema>
export type GitRemote = {
  url: string
  branch: string
  hasToken: boolean
  /** The integration whose connection's token pushes, or null for the stored token. */
  integration: string | null
} | null

/** POST /api/applications/{id}/push → what was pushed. */
export type PushResult = { branch: string; commitId: string; url: string }

import type { AuditPage, AuditQuery } from '@sprout/protocol/api/audit.ts'
import { apiRequest } from '../../lib/api-client.ts'
import { ApiError } from '../../lib/api-error.ts'
import { saveResponse } from '../../lib/save-file.ts'

/** Whose events: the whole installation's (platform admins) or one organization's. */
export type AuditSource = { kind: 'admin' } | { kind: 'organization'; organizationId: string }

/** A page as the server answers it, with the count of events it failed to write. */
export type AuditAnswer = AuditPage & { failed_writes: number }

export const EXPORT_FAILED = 'The export failed. Try again.'

const auditPaths = {
  admin: '/api/admin/audit',
  organization: '/api/organization/audit',
} as const satisfies Record<AuditSource['kind'], string>

/** The API address of `query` for `source`; the organization itself travels in a header. */
export function auditUrl(source: AuditSource, query: AuditQuery): string {
  const parameters = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') parameters.set(name, String(value))
  }
  const search = parameters.toString()
  return search ? `${auditPaths[source.kind]}?${search}` : auditPaths[source.kind]
}

const organizationIdOf = (source: AuditSource) =>
  source.kind === 'organization' ? source.organizationId : null

export const fetchAuditPage = (source: AuditSource, query: AuditQuery, signal?: AbortSignal) =>
  apiRequest<AuditAnswer>(auditUrl(source, query), {
    organizationId: organizationIdOf(source),
    signal,
  })

/**
 * An organization's export needs the Organization-ID header, which a plain link cannot send: the
 * JSON Lines are fetched and handed to the browser as a file, named as the server names it.
 */
export async function downloadAuditExport(source: AuditSource, query: AuditQuery): Promise<void> {
  const headers = new Headers()
  const organizationId = organizationIdOf(source)
  if (organizationId) headers.set('Organization-ID', organizationId)
  const response = await fetch(auditUrl(source, { ...query, format: 'jsonl' }), {
    headers,
    credentials: 'same-origin',
  })
  if (!response.ok) throw new ApiError(EXPORT_FAILED, response.status)
  await saveResponse(response, 'sprout-audit.jsonl')
}

import type { AuditAction, AuditQuery } from '@sprout/protocol/api/audit.ts'

/** What the filter bar holds: the fields' values as typed, '' for "any". */
export type AuditFilters = {
  actor: string
  organization: string
  action: AuditAction | ''
  /** `YYYY-MM-DD` from a date input, in the viewer's time zone. */
  from: string
  to: string
}

export const noAuditFilters: AuditFilters = {
  actor: '',
  organization: '',
  action: '',
  from: '',
  to: '',
}

/** The start of a local calendar day, `days` later, as the server's ISO date-time. */
function startOfLocalDay(date: string, days = 0): string | undefined {
  const start = new Date(`${date}T00:00`)
  if (Number.isNaN(start.getTime())) return undefined
  start.setDate(start.getDate() + days)
  return start.toISOString()
}

/**
 * The filters as the server reads them (docs/product/audit.md "Who sees it"). The table shows
 * local times, so the dates are local days; 'To' includes its day, the API's `to` does not.
 */
export function auditQueryOf(filters: AuditFilters): AuditQuery {
  const query: AuditQuery = {}
  const actor = filters.actor.trim()
  const organization = filters.organization.trim()
  const from = filters.from ? startOfLocalDay(filters.from) : undefined
  const to = filters.to ? startOfLocalDay(filters.to, 1) : undefined
  if (actor) query.actor = actor
  if (organization) query.organization = organization
  if (filters.action) query.action = filters.action
  if (from) query.from = from
  if (to) query.to = to
  return query
}

import { z } from 'zod'

// The audit log (docs/product/audit.md): what is recorded, and how it is read.

export const AUDIT_ACTIONS = [
  'sign-in',
  'sign-in.failed',
  'sign-up',
  'sign-out',
  'password.changed',
  'password.reset',
  'email.changed',
  'sessions.revoked',
  'admin.role-changed',
  'user.banned',
  'user.unbanned',
  'sign-up-rules.changed',
  'single-sign-on.changed',
  'member.invited',
  'member.left',
  'vault.set',
  'vault.deleted',
  'integration.connected',
  'integration.removed',
  'app.deployed',
  'app.visibility-changed',
  'version.restored',
  'git.pushed',
  'budget.changed',
  'backup.made',
  'backup.restored',
] as const
export type AuditAction = (typeof AUDIT_ACTIONS)[number]

/** One page of events, newest first. */
export const AUDIT_PAGE_SIZE_MAX = 200

export const auditQuerySchema = z.strictObject({
  actor: z.string().max(320).optional(),
  organization: z.string().max(100).optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  /** ISO dates or date-times; `to` is exclusive. */
  from: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
  to: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
  /** The `next` of the previous page. */
  before: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_SIZE_MAX).optional(),
  /** `jsonl`: every matching event as JSON Lines, for download. */
  format: z.enum(['json', 'jsonl']).optional(),
})
export type AuditQuery = z.infer<typeof auditQuerySchema>

export type AuditEvent = {
  id: string
  at: string
  action: AuditAction
  actor: { id: string | null; email: string | null }
  organization_id: string | null
  target: { type: string | null; id: string | null; label: string | null }
  address: string | null
  user_agent: string | null
  details: Record<string, string | number | boolean | null> | null
}

export type AuditPage = { events: AuditEvent[]; next: string | null }

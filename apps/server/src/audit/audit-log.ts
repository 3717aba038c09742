import { randomUUID } from 'node:crypto'
import type { Database } from '@sprout/db/database.ts'
import { auditEvents } from '@sprout/db/schema/audit-events.ts'
import type { AuditAction } from '@sprout/protocol/api/audit.ts'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import { toStorableText } from '@sprout/protocol/text/well-formed.ts'
import { lt } from 'drizzle-orm'
import type { Leadership } from '../cluster/leader.ts'
import { leaderSweep } from '../cluster/leader-sweep.ts'

/** What one event says; everything but the action is optional (a failed sign-in has no actor). */
export type AuditEntry = {
  action: AuditAction
  actor?: { id?: string | null; email?: string | null }
  organizationId?: string | null
  target?: { type: string; id?: string | null; label?: string | null }
  /** The client's address and user agent (audit-request.ts). */
  address?: string | null
  userAgent?: string | null
  /** Short facts about the change (a role, a visibility), never a secret's value. */
  details?: Record<string, string | number | boolean | null>
}

export type AuditLog = ReturnType<typeof createAuditLog>

/** How often the leader removes events past AUDIT_RETENTION_DAYS. */
const sweepEveryMs = 60 * 60_000
const textMax = 500

const storable = (value: string | null | undefined) =>
  value === undefined || value === null ? null : toStorableText(cutText(value, textMax))

/**
 * The audit log (docs/product/audit.md): `record` appends one event and never throws, so writing
 * it never fails the action it records; a write that fails is logged and counted (`failedWrites`,
 * on the admin's screen), never silently skipped.
 */
export function createAuditLog(options: {
  db: Database
  retentionDays: number
  leadership?: Pick<Leadership, 'isLeader'>
}) {
  const { db } = options
  let failedWrites = 0

  const sweep = async (now = Date.now()) => {
    const before = new Date(now - options.retentionDays * 86_400_000)
    const removed = await db
      .delete(auditEvents)
      .where(lt(auditEvents.createdAt, before))
      .returning({ id: auditEvents.id })
    return removed.length
  }

  return {
    record: async (entry: AuditEntry): Promise<void> => {
      try {
        const details = entry.details
          ? Object.fromEntries(
              Object.entries(entry.details).map(([key, value]) => [
                key,
                typeof value === 'string' ? storable(value) : value,
              ]),
            )
          : null
        await db.insert(auditEvents).values({
          id: randomUUID(),
          action: entry.action,
          actorId: storable(entry.actor?.id),
          actorEmail: storable(entry.actor?.email?.toLowerCase()),
          organizationId: storable(entry.organizationId),
          targetType: storable(entry.target?.type),
          targetId: storable(entry.target?.id),
          targetLabel: storable(entry.target?.label),
          address: storable(entry.address),
          userAgent: storable(entry.userAgent),
          details,
        })
      } catch (error) {
        failedWrites += 1
        console.error(
          `[audit] could not record ${entry.action} (${failedWrites} failed so far):`,
          error instanceof Error ? error.message : error,
        )
      }
    },
    failedWrites: () => failedWrites,
    sweep,
    ...leaderSweep({
      what: '[audit] removing events past AUDIT_RETENTION_DAYS',
      everyMs: sweepEveryMs,
      sweep,
      leadership: options.leadership,
    }),
  }
}

import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * What matters for security, appended and never changed (docs/product/audit.md): who did what,
 * to what, where from. Ids are kept as text without foreign keys, and the actor's address with
 * them, so an event outlives the account, organization or app it names. Never a secret.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: text('id').primaryKey(),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    /** e.g. `sign-in`, `sign-in.failed`, `vault.set`, `member.removed` (protocol/api/audit.ts). */
    action: text('action').notNull(),
    actorId: text('actor_id'),
    actorEmail: text('actor_email'),
    organizationId: text('organization_id'),
    targetType: text('target_type'),
    targetId: text('target_id'),
    /** A readable name of the target: an address, a secret's name (never its value), an app. */
    targetLabel: text('target_label'),
    address: text('address'),
    userAgent: text('user_agent'),
    details: jsonb('details').$type<Record<string, string | number | boolean | null>>(),
  },
  (table) => [
    index('audit_events_created_idx').on(table.createdAt),
    index('audit_events_organization_idx').on(table.organizationId, table.createdAt),
    index('audit_events_actor_idx').on(table.actorId, table.createdAt),
  ],
)

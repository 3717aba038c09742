import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { applications } from './applications.ts'

/**
 * A running Sprout instance of several on one database (docs/decisions/033-box-leases-and-relay.md):
 * where the others reach it, and its last beat.
 */
export const sproutInstances = pgTable('sprout_instances', {
  id: text('id').primaryKey(),
  /** `http://{address}:{port}`, reached by the other instances only. */
  internalUrl: text('internal_url').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).defaultNow().notNull(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).defaultNow().notNull(),
})

/** Which instance runs an application's box and production servers, until `expires_at`. */
export const boxLeases = pgTable(
  'box_leases',
  {
    applicationId: text('application_id')
      .primaryKey()
      .references(() => applications.id, { onDelete: 'cascade' }),
    instanceId: text('instance_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('box_leases_instance_idx').on(table.instanceId)],
)

/**
 * The dev box pool's spare boxes, shared by every instance on the database: claimed with
 * `for update skip locked`, so no box is given twice; made by the instance in `instance_id`.
 */
export const devboxPool = pgTable(
  'devbox_pool',
  {
    id: text('id').primaryKey(),
    packType: text('pack_type').notNull(),
    /** provisioning | ready */
    state: text('state').notNull(),
    instanceId: text('instance_id').notNull(),
    /** The version of the starter the box was made from; a box of an older one is not handed out. */
    template: text('template'),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [index('devbox_pool_pack_state_idx').on(table.packType, table.state)],
)

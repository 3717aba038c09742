import { boolean, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { applications } from './applications.ts'
import { organization } from './auth.ts'
import { runs } from './runs.ts'

/** One check of an app (docs/product/checks.md): the report as it last stood. */
export const appChecks = pgTable(
  'app_checks',
  {
    id: text('id').primaryKey(),
    applicationId: text('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    runId: text('run_id').references(() => runs.id, { onDelete: 'set null' }),
    /** run | tool | manual */
    trigger: text('trigger').notNull(),
    /** running | passed | failed | interrupted */
    state: text('state').notNull(),
    /** CheckReport */
    report: jsonb('report').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).defaultNow().notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [index('app_checks_application_idx').on(table.applicationId, table.startedAt)],
)

/** An organization's own settings of the agent's checks (docs/product/checks.md "Setting"). */
export const organizationCheckSettings = pgTable('organization_check_settings', {
  organizationId: text('organization_id')
    .primaryKey()
    .references(() => organization.id, { onDelete: 'cascade' }),
  autoRepair: boolean('auto_repair').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
})

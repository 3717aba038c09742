import { z } from 'zod'
import { CURSOR_MAX, idText, maxText } from './input-limits.ts'

/** docs/product/error-monitoring.md "Error group status". */
export const errorGroupStatuses = ['active', 'resolved', 'ignored'] as const
export const errorGroupStatusSchema = z.enum(errorGroupStatuses)
export type ErrorGroupStatus = z.infer<typeof errorGroupStatusSchema>

export const errorSourceSchema = z.enum(['browser', 'server'])

/** docs/product/error-monitoring.md "Error group and instance": one group of alike errors. */
export const errorGroupSchema = z.object({
  id: z.string(),
  application_id: z.string(),
  application_name: z.string(),
  error_type: z.string(),
  representative_message: z.string(),
  representative_stack: z.array(z.string()),
  occurrence_count: z.number(),
  first_seen_at: z.string(),
  last_seen_at: z.string(),
  status: errorGroupStatusSchema,
  source: errorSourceSchema,
  last_url: z.string().nullable(),
})
export type ErrorGroup = z.infer<typeof errorGroupSchema>

export const errorGroupListSchema = z.object({
  groups: z.array(errorGroupSchema),
  next_cursor: z.string().nullable(),
})
export type ErrorGroupList = z.infer<typeof errorGroupListSchema>

/** One occurrence of a group: where and when it happened, the session, its stack. */
export const errorInstanceSchema = z.object({
  id: z.string(),
  source: errorSourceSchema,
  occurred_at: z.string(),
  context: z.record(z.string(), z.unknown()),
  session_data: z.record(z.string(), z.unknown()),
  stack: z.array(z.string()),
})
export type ErrorInstance = z.infer<typeof errorInstanceSchema>

export const errorInstanceListSchema = z.object({ errors: z.array(errorInstanceSchema) })

export const updateErrorGroupStatusRequestSchema = z.object({ status: errorGroupStatusSchema })

export const errorStatsSchema = z.object({
  active: z.number(),
  resolved: z.number(),
  ignored: z.number(),
  total_occurrences: z.number(),
})
export type ErrorStats = z.infer<typeof errorStatsSchema>

export type ErrorInstanceList = z.infer<typeof errorInstanceListSchema>
export type ErrorSource = z.infer<typeof errorSourceSchema>

export const ERROR_GROUPS_PAGE = 50
export const ERROR_GROUPS_PAGE_MAX = 100
export const ERROR_INSTANCES_DEFAULT = 10
/** The newest occurrences a group keeps (docs/product/error-monitoring.md "Grouping"). */
export const ERROR_INSTANCES_KEPT = 100

const limitSchema = (fallback: number, max: number) =>
  z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(max, `must be at most ${max}`)
    .default(fallback)

/** `GET /api/errors/groups` and the per-application list. */
export const errorGroupsQuerySchema = z.object({
  status: errorGroupStatusSchema.optional(),
  limit: limitSchema(ERROR_GROUPS_PAGE, ERROR_GROUPS_PAGE_MAX),
  cursor: z.string().max(CURSOR_MAX, maxText(CURSOR_MAX)).optional(),
  application_id: idText().optional(),
})
export type ErrorGroupsQuery = z.output<typeof errorGroupsQuerySchema>

export const errorInstancesQuerySchema = z.object({
  limit: limitSchema(ERROR_INSTANCES_DEFAULT, ERROR_INSTANCES_KEPT),
})

export const rotateErrorKeyResponseSchema = z.object({ dsn: z.string() })

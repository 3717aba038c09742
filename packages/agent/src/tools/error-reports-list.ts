import { type ErrorGroup, errorGroupStatusSchema } from '@sprout/protocol/api/error-monitoring.ts'
import { appStackLines } from '@sprout/protocol/text/app-stack.ts'
import { formatRelativeTime } from '@sprout/protocol/text/relative-time.ts'
import {
  type ErrorReport,
  formatErrorReports,
} from '@sprout/protocol/tool-formats/error-reports.ts'
import { tool } from 'ai'
import { z } from 'zod'
import type { ToolContext } from './tool-context.ts'
import { runTool, ToolError } from './tool-output.ts'

export const ERROR_REPORTS_DEFAULT_LIMIT = 10
export const ERROR_REPORTS_MAX_LIMIT = 50
/**
 * Frames listed per group: the app's own, at their workspace paths, as 'Ask agent to fix' sends
 * them (docs/product/error-monitoring.md "Builder error list"); React's, Vite's and Sprout's
 * reporter's frames only cost the model tokens.
 */
const STACK_FRAMES_LISTED = 5

export const errorReportsListInputSchema = z.object({
  status: errorGroupStatusSchema
    .optional()
    .describe('Which groups: active (default, the ones still happening), resolved or ignored'),
  limit: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(`How many groups, newest first; default ${ERROR_REPORTS_DEFAULT_LIMIT}`),
})
export type ErrorReportsListInput = z.infer<typeof errorReportsListInputSchema>

/** 'Error: message' as the browser prints it, without repeating a type the message already has. */
export function errorLine(group: Pick<ErrorGroup, 'error_type' | 'representative_message'>) {
  const { error_type: type, representative_message: message } = group
  if (!type || message.startsWith(`${type}:`)) return message
  return message ? `${type}: ${message}` : type
}

export function toErrorReport(group: ErrorGroup, now: Date): ErrorReport {
  const since = formatRelativeTime(group.last_seen_at, now)
  const seen = since === 'now' ? 'just now' : /\d$/.test(since) ? since : `${since} ago`
  return {
    groupId: group.id,
    timeSince: `${seen} (${group.occurrence_count}x, ${group.source})`,
    url: group.last_url ?? '',
    error: errorLine(group),
    stacktrace: appStackLines(group.representative_stack, STACK_FRAMES_LISTED),
  }
}

/**
 * docs/product/tool-calls.md "Agent tool view of errors": a heading, then one block per group in
 * the format the chat parses (formatErrorReports).
 */
export function formatErrorReportsList(groups: ErrorGroup[], status: string, now: Date): string {
  if (groups.length === 0) return `No ${status} errors.`
  const noun = groups.length === 1 ? 'group' : 'groups'
  const reports = groups.map((group) => toErrorReport(group, now))
  return `${groups.length} ${status} error ${noun}:\n${formatErrorReports(reports)}`
}

export function createErrorReportsListTool(context: ToolContext) {
  return tool({
    description:
      "List the errors the app's users hit in the preview and in production (browser and " +
      'server), grouped: each with its group_id, when it was last seen, the URL, the error and ' +
      'its stack. Read it when the user reports a problem or asks you to fix errors.',
    inputSchema: errorReportsListInputSchema,
    execute: ({ status = 'active', limit = ERROR_REPORTS_DEFAULT_LIMIT }) =>
      runTool(context, async () => {
        if (!context.errorReports) throw new ToolError('Error monitoring is not available here')
        const count = Math.min(limit, ERROR_REPORTS_MAX_LIMIT)
        const groups = await context.errorReports.list(status, count)
        return formatErrorReportsList(groups, status, context.now?.() ?? new Date())
      }),
  })
}

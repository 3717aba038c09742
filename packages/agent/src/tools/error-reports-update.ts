import { tool } from 'ai'
import { z } from 'zod'
import { errorLine } from './error-reports-list.ts'
import { errorReportActions, type ToolContext } from './tool-context.ts'
import { runTool, ToolError } from './tool-output.ts'

export const errorReportsUpdateInputSchema = z.object({
  action: z
    .enum(errorReportActions)
    .describe(
      'resolve: you fixed it (it reopens if it happens again); suppress: ignore it for good; ' +
        'update: only add a comment',
    ),
  group_id: z.string().min(1).describe('The group_id from error_reports_list'),
  comment: z.string().optional().describe('What you did, in one sentence'),
})
export type ErrorReportsUpdateInput = z.infer<typeof errorReportsUpdateInputSchema>

const verbs = { resolve: 'Resolved', suppress: 'Suppressed', update: 'Updated' } as const

/** docs/product/tool-calls.md "Agent tool view of errors": the chat shows the action's label. */
export function createErrorReportsUpdateTool(context: ToolContext) {
  return tool({
    description:
      'Change an error group from error_reports_list: resolve it once you fixed its cause, ' +
      'suppress it when it is not a bug, or update it with a comment.',
    inputSchema: errorReportsUpdateInputSchema,
    execute: ({ action, group_id: groupId, comment }) =>
      runTool(context, async () => {
        if (!context.errorReports) throw new ToolError('Error monitoring is not available here')
        const group = await context.errorReports.update(action, groupId, comment)
        const note = comment ? `\nComment: ${comment}` : ''
        return `${verbs[action]} error group ${group.id} (now ${group.status}): ${errorLine(group)}${note}`
      }),
  })
}

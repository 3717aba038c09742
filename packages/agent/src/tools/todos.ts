import { formatTasks, taskStatusSchema } from '@sprout/protocol/tool-formats/tasks.ts'
import { tool } from 'ai'
import { z } from 'zod'
import type { ToolContext } from './tool-context.ts'
import { runTool } from './tool-output.ts'

export const todosInputSchema = z.object({
  tasks: z
    .array(
      z.object({
        id: z.string().min(1).describe('Short stable id, e.g. "1"'),
        status: taskStatusSchema,
        title: z.string().min(1),
        notes: z.string().optional(),
      }),
    )
    .describe('The whole list, every time: tasks left out disappear'),
  title: z.string().optional().describe('A heading for the list, e.g. "Build the landing page"'),
})
export type TodosInput = z.infer<typeof todosInputSchema>

/**
 * Its output format, formatTasks (docs/product/tool-calls.md "Task"), lives in packages/protocol
 * beside the parser.
 */
export function createTodosTool(context: ToolContext) {
  return tool({
    description:
      'Keep a todo list for multi-step work, shown to the user. Send the whole list each time; ' +
      'mark tasks complete as you finish them.',
    inputSchema: todosInputSchema,
    execute: (input) => runTool(context, async () => formatTasks(input)),
  })
}

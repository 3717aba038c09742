import { tool } from 'ai'
import { z } from 'zod'
import type { ToolContext } from './tool-context.ts'
import { runTool } from './tool-output.ts'

export const getTimeInputSchema = z.object({})
export type GetTimeInput = z.infer<typeof getTimeInputSchema>

export function formatGetTimeResult(now: Date): string {
  return `The current time is ${now.toUTCString()} (${now.toISOString()}).`
}

export function createGetTimeTool(context: ToolContext) {
  return tool({
    description: 'Get the current date and time (UTC).',
    inputSchema: getTimeInputSchema,
    execute: () => runTool(context, async () => formatGetTimeResult(context.now?.() ?? new Date())),
  })
}

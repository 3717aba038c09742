import { tool } from 'ai'
import { z } from 'zod'
import type { ToolContext } from './tool-context.ts'
import { runTool } from './tool-output.ts'

export const SERVER_LOGS_DEFAULT_LINES = 100
export const SERVER_LOGS_MAX_LINES = 500
export const SERVER_LOGS_EMPTY = '(no output)'

export const serverLogsInputSchema = z.object({
  lines: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      `How many of the last lines to read; default ${SERVER_LOGS_DEFAULT_LINES}, at most ${SERVER_LOGS_MAX_LINES}`,
    ),
})
export type ServerLogsInput = z.infer<typeof serverLogsInputSchema>

// Terminal colours and cursor moves: noise for the model and the chat.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character is what is matched
const terminalEscapes = /\u001b\[[0-9;?]*[A-Za-z]/g

/** The last `lines` lines of the dev server's output, or '(no output)'. */
export function formatServerLogsResult(logs: string, lines = SERVER_LOGS_DEFAULT_LINES): string {
  const count = Math.min(Math.max(1, Math.floor(lines)), SERVER_LOGS_MAX_LINES)
  const text = logs.replace(terminalEscapes, '').replace(/\r\n?/g, '\n').trimEnd()
  if (text.trim() === '') return SERVER_LOGS_EMPTY
  return text.split('\n').slice(-count).join('\n')
}

export function createServerLogsTool(context: ToolContext) {
  return tool({
    description:
      "Read the last lines of the app's dev server output: Vite's messages and what the app's " +
      'server code prints, including errors and stack traces of failing /api routes. Read it ' +
      'when the preview or an API call misbehaves.',
    inputSchema: serverLogsInputSchema,
    execute: ({ lines }) =>
      runTool(
        context,
        async () => formatServerLogsResult(context.devbox.devServer?.logs?.() ?? '', lines),
        { keep: 'end' },
      ),
  })
}

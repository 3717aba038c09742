import { tool } from 'ai'
import { z } from 'zod'
import type { ToolContext } from './tool-context.ts'
import { runTool } from './tool-output.ts'

export const viewFileInputSchema = z.object({
  path: z.string().describe('File path relative to the project root'),
})
export type ViewFileInput = z.infer<typeof viewFileInputSchema>

export function formatViewFileResult(content: string): string {
  return content.length === 0 ? '(empty file)' : content
}

export function createViewFileTool(context: ToolContext) {
  return tool({
    description: 'Read a text file of the project. Read a file before editing it.',
    inputSchema: viewFileInputSchema,
    execute: ({ path }) =>
      runTool(context, async () => formatViewFileResult(await context.devbox.files.read(path)), {
        target: path,
      }),
  })
}

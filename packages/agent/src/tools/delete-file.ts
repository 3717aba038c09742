import { tool } from 'ai'
import { z } from 'zod'
import type { ToolContext } from './tool-context.ts'
import { runTool } from './tool-output.ts'

export const deleteFileInputSchema = z.object({
  path: z.string().describe('File path relative to the project root'),
})
export type DeleteFileInput = z.infer<typeof deleteFileInputSchema>

export function formatDeleteFileResult(path: string): string {
  return `Deleted ${path}.`
}

export function createDeleteFileTool(context: ToolContext) {
  return tool({
    description: 'Delete a file of the project.',
    inputSchema: deleteFileInputSchema,
    execute: ({ path }) =>
      runTool(
        context,
        async () => {
          await context.devbox.files.delete(path)
          return formatDeleteFileResult(path)
        },
        { target: path },
      ),
  })
}

import { tool } from 'ai'
import { z } from 'zod'
import type { ToolContext } from './tool-context.ts'
import { runTool } from './tool-output.ts'

export const writeFileInputSchema = z.object({
  path: z.string().describe('File path relative to the project root, e.g. src/App.tsx'),
  content: z.string().describe('The complete new content of the file'),
})
export type WriteFileInput = z.infer<typeof writeFileInputSchema>

export function formatWriteFileResult(path: string, content: string): string {
  const lines = content.length === 0 ? 0 : content.split('\n').length
  return `Wrote ${path} (${lines} ${lines === 1 ? 'line' : 'lines'}).`
}

export function createWriteFileTool(context: ToolContext) {
  return tool({
    description:
      'Create a file or replace its whole content. Parent folders are created. ' +
      'To change part of an existing file, use str_replace instead.',
    inputSchema: writeFileInputSchema,
    execute: ({ path, content }) =>
      runTool(
        context,
        async () => {
          await context.devbox.files.write(path, content)
          return formatWriteFileResult(path, content)
        },
        { target: path },
      ),
  })
}

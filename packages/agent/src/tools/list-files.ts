import type { FileEntry } from '@sprout/devbox/devbox-driver.ts'
import { tool } from 'ai'
import { z } from 'zod'
import type { ToolContext } from './tool-context.ts'
import { runTool } from './tool-output.ts'

export const listFilesInputSchema = z.object({
  path: z.string().optional().describe('Folder relative to the project root; default "."'),
})
export type ListFilesInput = z.infer<typeof listFilesInputSchema>

/** Entries listed at most; a bigger tree is better explored folder by folder. */
export const LIST_FILES_LIMIT = 500

const hiddenSegments = new Set(['node_modules', '.git', 'dist', '.vite'])

function isHidden(entry: FileEntry): boolean {
  return entry.path.split(/[\\/]/).some((segment) => hiddenSegments.has(segment))
}

export function formatListFilesResult(path: string, entries: FileEntry[]): string {
  const visible = entries.filter((entry) => !isHidden(entry))
  if (visible.length === 0) return `${path} is empty.`
  const lines = visible
    .slice(0, LIST_FILES_LIMIT)
    .map((entry) => (entry.type === 'directory' ? `${entry.path}/` : entry.path))
  if (visible.length > LIST_FILES_LIMIT) {
    lines.push(`[${visible.length - LIST_FILES_LIMIT} more entries; list a subfolder to see them]`)
  }
  return lines.join('\n')
}

export function createListFilesTool(context: ToolContext) {
  return tool({
    description:
      'List the files and folders under a folder of the project, recursively ' +
      '(node_modules, .git and dist are left out).',
    inputSchema: listFilesInputSchema,
    execute: ({ path = '.' }) =>
      runTool(
        context,
        async () =>
          formatListFilesResult(path, await context.devbox.files.list(path, { recursive: true })),
        { target: path },
      ),
  })
}

import type { SearchMatch } from '@sprout/devbox/devbox-driver.ts'
import { tool } from 'ai'
import { z } from 'zod'
import type { ToolContext } from './tool-context.ts'
import { runTool } from './tool-output.ts'

export const searchInputSchema = z.object({
  pattern: z.string().describe('Regular expression to look for in file contents'),
  path: z.string().optional().describe('Folder to search in; default the whole project'),
  file_type: z.string().optional().describe('File extension without the dot, e.g. tsx'),
})
export type SearchInput = z.infer<typeof searchInputSchema>

export const SEARCH_MATCH_LIMIT = 200

export function formatSearchResult(input: SearchInput, matches: SearchMatch[]): string {
  if (matches.length === 0) return `No matches for ${input.pattern}.`
  const lines = matches.map((match) => `${match.path}:${match.line}: ${match.text}`)
  if (matches.length >= SEARCH_MATCH_LIMIT) {
    lines.push(`[stopped at ${SEARCH_MATCH_LIMIT} matches; narrow the pattern or the path]`)
  }
  return lines.join('\n')
}

export function createSearchTool(context: ToolContext) {
  return tool({
    description: 'Search the contents of the project files (like grep), skipping node_modules.',
    inputSchema: searchInputSchema,
    execute: (input) =>
      runTool(
        context,
        async () => {
          const matches = await context.devbox.files.search({
            pattern: input.pattern,
            path: input.path,
            fileType: input.file_type,
            maxMatches: SEARCH_MATCH_LIMIT,
          })
          return formatSearchResult(input, matches)
        },
        { target: input.path },
      ),
  })
}

import { z } from 'zod'

/** web_search's output: the links it found (docs/product/tool-calls.md "Tool inputs"). */
export const webSearchResultSchema = z.object({
  url: z.string(),
  title: z.string().optional(),
})
export type WebSearchResult = z.infer<typeof webSearchResultSchema>

export const UNTITLED_RESULT_TEXT = 'Untitled'
export const NO_RESULTS_TEXT = 'No results found'

/** Reads the results from an array or `{ results: [...] }`; entries without a url are skipped. */
export function parseWebSearchResults(output: unknown): WebSearchResult[] {
  const list =
    typeof output === 'object' && output !== null && 'results' in output ? output.results : output
  if (!Array.isArray(list)) return []
  return list.flatMap((entry) => {
    const parsed = webSearchResultSchema.safeParse(entry)
    return parsed.success ? [parsed.data] : []
  })
}

export function webSearchResultTitle(result: WebSearchResult): string {
  return result.title?.trim() || UNTITLED_RESULT_TEXT
}

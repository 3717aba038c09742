import {
  NO_RESULTS_TEXT,
  parseWebSearchResults,
  webSearchResultTitle,
} from '@sprout/protocol/tool-formats/web-search.ts'

/** web_search: its links, each by title (or 'Untitled'); 'No results found' when none. */
export function WebSearchResults({ output }: { output: unknown }) {
  const results = parseWebSearchResults(output)
  if (results.length === 0) return <p className="text-xs text-zinc-500">{NO_RESULTS_TEXT}</p>
  return (
    <ul className="flex flex-col gap-1 text-sm">
      {results.map((result, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: one search's results never reorder
        <li key={index} className="min-w-0 truncate">
          <a
            href={safeUrl(result.url)}
            target="_blank"
            rel="noopener noreferrer"
            className="text-accent-700 underline-offset-2 hover:underline"
          >
            {webSearchResultTitle(result)}
          </a>
          <span className="ml-2 text-xs text-zinc-500">{result.url}</span>
        </li>
      ))}
    </ul>
  )
}

/** Only web addresses become links; a javascript: URL from a page title stays inert. */
function safeUrl(url: string): string | undefined {
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined
  } catch {
    return undefined
  }
}

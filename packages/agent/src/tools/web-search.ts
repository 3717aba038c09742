import { cutText } from '@sprout/protocol/text/cut-text.ts'
import type { WebSearchResult as WebSearchLink } from '@sprout/protocol/tool-formats/web-search.ts'
import { tool } from 'ai'
import { z } from 'zod'
import type { ToolContext, WebSearchConfig } from './tool-context.ts'
import { ToolError } from './tool-output.ts'

export const webSearchInputSchema = z.object({
  query: z.string().min(1).describe('What to search the web for'),
})
export type WebSearchInput = z.infer<typeof webSearchInputSchema>

/**
 * The link the chat lists (docs/product/tool-calls.md "Tool inputs"), with a snippet for the model.
 */
export type WebSearchResult = WebSearchLink & { title: string; snippet?: string }

export const WEB_SEARCH_RESULT_LIMIT = 8
const SNIPPET_LIMIT = 400

export function isWebSearchConfigured(config: WebSearchConfig | undefined): boolean {
  return Boolean(config?.searxngUrl || config?.braveApiKey || config?.tavilyApiKey)
}

type RawResult = { url?: unknown; title?: unknown; content?: unknown; description?: unknown }

function toResults(raw: unknown): WebSearchResult[] {
  if (!Array.isArray(raw)) return []
  return raw.flatMap((item: RawResult) => {
    if (typeof item?.url !== 'string') return []
    const snippet = typeof item.content === 'string' ? item.content : item.description
    return [
      {
        url: item.url,
        title: typeof item.title === 'string' ? item.title : '',
        ...(typeof snippet === 'string' ? { snippet: cutText(snippet, SNIPPET_LIMIT) } : {}),
      },
    ]
  })
}

async function readJson(response: Response, service: string): Promise<unknown> {
  if (!response.ok) throw new ToolError(`${service} answered ${response.status}.`)
  return response.json()
}

/** Queries SearXNG, Brave or Tavily, whichever is configured first. */
export async function searchWeb(
  query: string,
  config: WebSearchConfig,
  fetcher: typeof globalThis.fetch,
  signal?: AbortSignal,
): Promise<WebSearchResult[]> {
  if (config.searxngUrl) {
    const url = new URL('search', config.searxngUrl.replace(/\/?$/, '/'))
    url.searchParams.set('q', query)
    url.searchParams.set('format', 'json')
    const body = (await readJson(await fetcher(url, { signal }), 'SearXNG')) as {
      results?: unknown
    }
    return toResults(body.results)
  }
  if (config.braveApiKey) {
    const url = new URL('https://api.search.brave.com/res/v1/web/search')
    url.searchParams.set('q', query)
    const response = await fetcher(url, {
      signal,
      headers: { accept: 'application/json', 'x-subscription-token': config.braveApiKey },
    })
    const body = (await readJson(response, 'Brave Search')) as { web?: { results?: unknown } }
    return toResults(body.web?.results)
  }
  if (config.tavilyApiKey) {
    const response = await fetcher('https://api.tavily.com/search', {
      method: 'POST',
      signal,
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${config.tavilyApiKey}`,
      },
      body: JSON.stringify({ query, max_results: WEB_SEARCH_RESULT_LIMIT }),
    })
    const body = (await readJson(response, 'Tavily')) as { results?: unknown }
    return toResults(body.results)
  }
  throw new ToolError('Web search is not configured.')
}

export function createWebSearchTool(context: ToolContext) {
  return tool({
    description:
      'Search the web, e.g. for library documentation or an error message. Returns links with titles.',
    inputSchema: webSearchInputSchema,
    execute: async ({ query }, { abortSignal }): Promise<WebSearchResult[]> => {
      const redact = context.redact ?? ((text: string) => text)
      try {
        const results = await searchWeb(
          query,
          context.webSearch ?? {},
          context.fetch ?? globalThis.fetch,
          abortSignal,
        )
        return results.slice(0, WEB_SEARCH_RESULT_LIMIT).map((result) => ({
          url: redact(result.url),
          title: redact(result.title),
          ...(result.snippet ? { snippet: redact(result.snippet) } : {}),
        }))
      } catch (error) {
        if (error instanceof ToolError) throw error
        throw new ToolError(
          redact(`Web search failed: ${error instanceof Error ? error.message : String(error)}`),
        )
      }
    },
  })
}

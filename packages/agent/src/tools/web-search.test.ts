import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test } from 'vitest'
import { executeTool } from '../testing/execute-tool.ts'
import type { ToolContext } from './tool-context.ts'
import { createWebSearchTool } from './web-search.ts'

const noDevbox = {
  files: {},
  exec: async () => Promise.reject(),
} as unknown as ToolContext['devbox']

test('queries SearXNG and returns links with titles', async () => {
  const queries: string[] = []
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake')
    queries.push(
      `${url.pathname}?q=${url.searchParams.get('q')}&format=${url.searchParams.get('format')}`,
    )
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(
      JSON.stringify({
        results: [
          {
            url: 'https://react.dev/reference/react/useState',
            title: 'useState',
            content: 'A hook',
          },
          { url: 'https://example.com/no-title' },
          { title: 'no url' },
        ],
      }),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  try {
    const search = createWebSearchTool({
      devbox: noDevbox,
      webSearch: { searxngUrl: `http://127.0.0.1:${port}` },
    })
    const results = await executeTool(search, { query: 'react useState' })
    expect(queries).toEqual(['/search?q=react useState&format=json'])
    expect(results).toEqual([
      { url: 'https://react.dev/reference/react/useState', title: 'useState', snippet: 'A hook' },
      { url: 'https://example.com/no-title', title: '' },
    ])
  } finally {
    server.close()
  }
})

test('a failing search service is a tool error, not a crash', async () => {
  const search = createWebSearchTool({
    devbox: noDevbox,
    webSearch: { braveApiKey: 'key' },
    fetch: async () => new Response('nope', { status: 503 }),
  })
  await expect(executeTool(search, { query: 'x' })).rejects.toThrow('Brave Search answered 503.')
})

import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render, rerender, until } from '../../testing/render.tsx'
import { CodeTab } from './code-tab.tsx'
import type { CodeFileRequest } from './use-code-file-request.ts'

// docs/product/checks.md "Shown on the run": a check's problem opens its file at its line.

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const contents: Record<string, string> = {
  'src/App.tsx': 'export default function App() {}\n',
  'src/List.tsx': 'const a = 1\nconst b = 2\nconst broken: string = 3\nexport {}\n',
  'server/app.ts': 'import { Hono } from "hono"\nexport const app = new Hono()\n',
}

function fakeFiles() {
  const read: string[] = []
  vi.stubGlobal('fetch', async (url: string) => {
    const parsed = new URL(url, 'http://localhost')
    const path = parsed.searchParams.get('path') ?? ''
    const json = (value: unknown) =>
      new Response(JSON.stringify(value), { headers: { 'Content-Type': 'application/json' } })
    if (!parsed.pathname.endsWith('/content')) return json({ path, entries: [] })
    read.push(path)
    return json({ path, content: contents[path] ?? '', hash: `hash-${path}`, readOnly: false })
  })
  return read
}

function tab(fileRequest: CodeFileRequest, client: QueryClient) {
  return (
    <QueryClientProvider client={client}>
      <CodeTab applicationId="app-1" agentRunning={false} fileRequest={fileRequest} />
    </QueryClientProvider>
  )
}

const activeLine = () => document.querySelector('.cm-activeLine')?.textContent

describe('the Code tab, asked for a file', () => {
  it('opens it first, at its line, and each later request too', async () => {
    const read = fakeFiles()
    const client = new QueryClient()
    const container = render(tab({ path: 'src/List.tsx', line: 3, column: 7, id: 1 }, client))
    await until(() => activeLine() === 'const broken: string = 3')
    expect(read).toEqual(['src/List.tsx'])
    rerender(container, tab({ path: 'server/app.ts', line: 2, column: null, id: 2 }, client))
    await until(() => activeLine() === 'export const app = new Hono()')
    rerender(container, tab({ path: 'server/app.ts', line: 1, column: 1, id: 3 }, client))
    await until(() => activeLine() === 'import { Hono } from "hono"')
    expect(read).toEqual(['src/List.tsx', 'server/app.ts'])
  })
})

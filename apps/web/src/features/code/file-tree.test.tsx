import type { FileTreeResponse } from '@sprout/protocol/api/versions.ts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, click, render, until } from '../../testing/render.tsx'
import { FileTree } from './file-tree.tsx'

/** A workspace behind a stubbed fetch: one folder per call, as GET .../files answers. */
const folders: Record<string, FileTreeResponse['entries']> = {
  '': [
    { name: 'server', path: 'server', type: 'directory' },
    { name: 'src', path: 'src', type: 'directory' },
    { name: 'package.json', path: 'package.json', type: 'file', size: 10 },
  ],
  src: [
    { name: 'components', path: 'src/components', type: 'directory' },
    { name: 'App.tsx', path: 'src/App.tsx', type: 'file', size: 10 },
  ],
  'src/components': [{ name: 'Card.tsx', path: 'src/components/Card.tsx', type: 'file', size: 5 }],
  server: [{ name: 'app.ts', path: 'server/app.ts', type: 'file', size: 5 }],
}

function fakeFiles() {
  const asked: string[] = []
  vi.stubGlobal('fetch', async (url: string) => {
    const path = new URL(url, 'http://localhost').searchParams.get('path') ?? ''
    asked.push(path)
    return new Response(JSON.stringify({ path, entries: folders[path] ?? [] }), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    })
  })
  return asked
}

const item = (path: string) =>
  document.querySelector<HTMLElement>(`[role="treeitem"][data-path="${path}"]`)
const press = (key: string) =>
  act(() => {
    document.activeElement?.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }))
  })

function renderTree(onOpen: (path: string) => void) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={client}>
      <FileTree
        applicationId="app-1"
        selectedPath={undefined}
        unsavedPaths={new Set(['src/App.tsx'])}
        onOpen={onOpen}
      />
    </QueryClientProvider>,
  )
}

describe('the Code tab file tree', () => {
  afterEach(() => {
    cleanup()
    vi.unstubAllGlobals()
  })

  it('reads a folder only when it is opened, src first', async () => {
    const asked = fakeFiles()
    renderTree(() => {})
    await until(() => item('src/App.tsx') !== null)
    expect(asked.sort()).toEqual(['', 'src'])
    expect(item('src/components/Card.tsx')).toBeNull()
    expect(item('src/App.tsx')?.textContent).toContain('●')
    click(item('src/components'))
    await until(() => item('src/components/Card.tsx') !== null)
    expect(asked).toContain('src/components')
    expect(asked).not.toContain('server')
  })

  it('moves with the arrow keys, opens and closes folders, opens a file with Enter', async () => {
    fakeFiles()
    const opened: string[] = []
    renderTree((path) => opened.push(path))
    await until(() => item('src/App.tsx') !== null)
    // The first item takes the Tab key; the others wait for the arrows.
    expect(item('server')?.tabIndex).toBe(0)
    expect(item('src')?.tabIndex).toBe(-1)
    act(() => item('server')?.focus())
    press('ArrowRight')
    await until(() => item('server/app.ts') !== null)
    expect(item('server')?.getAttribute('aria-expanded')).toBe('true')
    press('ArrowDown')
    expect(document.activeElement).toBe(item('server/app.ts'))
    press('ArrowLeft')
    expect(document.activeElement).toBe(item('server'))
    press('ArrowLeft')
    expect(item('server/app.ts')).toBeNull()
    press('ArrowDown')
    press('ArrowDown')
    press('ArrowDown')
    expect(document.activeElement).toBe(item('src/App.tsx'))
    press('Enter')
    expect(opened).toEqual(['src/App.tsx'])
    press('End')
    expect(document.activeElement).toBe(item('package.json'))
  })
})

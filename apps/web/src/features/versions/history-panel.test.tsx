// Long file: the History panel's list, diff, restore and keyboard cases share one fake API.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeVersions, sampleDiffFile, sampleVersion } from '../../testing/fake-versions.ts'
import { buttonNamed, cleanup, click, pageText, render, until } from '../../testing/render.tsx'
import { HistoryPanel } from './history-panel.tsx'
import { RunChangesLink } from './run-changes-link.tsx'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function renderPanel(props: { openVersionId?: string; onClose?: () => void } = {}) {
  const onRestored = vi.fn()
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={client}>
      <HistoryPanel applicationId="app-1" onRestored={onRestored} {...props} />
    </QueryClientProvider>,
  )
  return onRestored
}

const rows = () => Array.from(document.querySelectorAll('[data-testid="version-row"]'))
const dialog = () => document.querySelector('[role="dialog"]')
const progress = () => document.querySelector('[data-testid="restore-progress"]')
const alertText = () => document.querySelector('[role="alert"]')?.textContent
const press = (target: Element | null, key: string) =>
  act(() => {
    target?.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }))
  })

describe('HistoryPanel', () => {
  it('lists versions newest first with number, title, kind, who, when and lines, paged', async () => {
    const fake = fakeVersions(
      [
        sampleVersion(3, { kind: 'restore', title: 'Restored version 1', author: null }),
        sampleVersion(2, { kind: 'edit', title: 'Edited by Maker: src/App.tsx' }),
        sampleVersion(1, { kind: 'start', title: 'Starter app', runId: null, files: [] }),
      ],
      { pageSize: 2 },
    )
    renderPanel()
    await until(() => rows().length === 2)
    expect(rows()[0]?.textContent).toContain('Version 3')
    expect(rows()[0]?.textContent).toContain('Restored')
    expect(rows()[0]?.textContent).toContain('Restored version 1')
    expect(rows()[0]?.textContent).toContain('5m')
    expect(rows()[1]?.textContent).toContain('Edited')
    expect(rows()[1]?.textContent).toContain('Maker')
    expect(rows()[1]?.textContent).toContain('1 file changed+3 −1')
    expect(pageText()).toContain('3 versions')

    click(buttonNamed('Load more'))
    await until(() => rows().length === 3)
    expect(rows()[2]?.textContent).toContain('Version 1')
    expect(rows()[2]?.textContent).toContain('Start')
    expect(rows()[2]?.textContent).toContain('0 files changed')
    expect(() => buttonNamed('Load more')).toThrow()
    expect(fake.calls.map((call) => call.url)).toEqual([
      '/api/applications/app-1/versions',
      '/api/applications/app-1/versions?cursor=2',
    ])
  })

  it("has a 'Close' where the builder gives one", async () => {
    fakeVersions([sampleVersion(1)])
    const onClose = vi.fn()
    renderPanel({ onClose })
    await until(() => rows().length === 1)
    click(buttonNamed('Close'))
    expect(onClose).toHaveBeenCalledTimes(1)
    cleanup()
    renderPanel()
    await until(() => rows().length === 1)
    expect(() => buttonNamed('Close')).toThrow()
  })

  it("closes from a diff too: its 'Close', and Escape back to where it was opened from", async () => {
    fakeVersions([sampleVersion(2), sampleVersion(1)])
    const onClose = vi.fn()
    renderPanel({ onClose })
    await until(() => rows().length === 2)
    // Opened from the list: Escape goes back to it, and then closes the panel.
    click(rows()[1])
    await until(() => pageText().includes('Restore this version'))
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Changes of version 1')
    press(document.activeElement, 'Escape')
    await until(() => rows().length === 2)
    expect(onClose).not.toHaveBeenCalled()
    press(document.activeElement, 'Escape')
    expect(onClose).toHaveBeenCalledTimes(1)
    click(rows()[0])
    await until(() => pageText().includes('Restore this version'))
    click(buttonNamed('Close'))
    expect(onClose).toHaveBeenCalledTimes(2)
    cleanup()

    // Opened by the chat's link: Escape closes the panel; the restore dialog keeps its own Escape.
    const fromLink = vi.fn()
    renderPanel({ openVersionId: 'version-2', onClose: fromLink })
    await until(() => pageText().includes('Restore this version'))
    click(buttonNamed('Restore this version'))
    press(document.activeElement, 'Escape')
    expect(dialog()).toBeNull()
    expect(fromLink).not.toHaveBeenCalled()
    press(document.body, 'Escape')
    expect(fromLink).toHaveBeenCalledTimes(1)
  })

  it('says so when the app has no versions yet', async () => {
    fakeVersions([])
    renderPanel()
    await until(() =>
      pageText().includes('No versions yet. Each run that changes files makes one.'),
    )
  })

  it('opens a diff drawn by diff2html, syntax-coloured, unified or side by side', async () => {
    fakeVersions([sampleVersion(2), sampleVersion(1)])
    renderPanel()
    await until(() => rows().length === 2)
    click(rows()[1])
    await until(() => document.querySelector('[data-testid="patch"] .d2h-file-wrapper') !== null)
    const patch = () => document.querySelector('[data-testid="patch"]')
    expect(pageText()).toContain('Version 1')
    expect(pageText()).toContain('Change number 1')
    expect(patch()?.textContent).toContain('const title = "New"')
    expect(patch()?.querySelector('.d2h-del')).not.toBeNull()
    expect(patch()?.querySelector('.hljs-keyword, .hljs-string')).not.toBeNull()
    expect(patch()?.querySelector('.d2h-file-side-diff')).toBeNull()
    // Its scroll areas are reached by keyboard, each named (axe: scrollable-region-focusable).
    const scrollAreas = () =>
      Array.from(patch()?.querySelectorAll<HTMLElement>('[role="region"]') ?? []).map(
        (area) => `${area.tabIndex} ${area.getAttribute('aria-label')}`,
      )
    expect(scrollAreas()).toEqual(['0 src/App.tsx, changes'])

    click(buttonNamed('Side by side'))
    await until(() => patch()?.querySelector('.d2h-file-side-diff') !== null)
    expect(scrollAreas()).toEqual(['0 src/App.tsx, before', '0 src/App.tsx, after'])
    click(buttonNamed('← All versions'))
    await until(() => rows().length === 2)
  })

  it("collapses a large file behind 'Show' and only names a binary file", async () => {
    fakeVersions([sampleVersion(1)], {
      diffFiles: () => [
        sampleDiffFile({
          path: 'src/big.ts',
          lines: 900,
          patch: `@@ -0,0 +1,900 @@\n${'+const line = 1\n'.repeat(900)}`,
          added: 900,
          removed: 0,
          status: 'added',
        }),
        sampleDiffFile({
          path: 'public/logo.png',
          binary: true,
          patch: '',
          added: null,
          removed: null,
          lines: 0,
        }),
      ],
    })
    renderPanel({ openVersionId: 'version-1' })
    await until(() => pageText().includes('Large diff (900 lines)'))
    const files = () => Array.from(document.querySelectorAll('[data-testid="diff-file"]'))
    expect(files()[0]?.querySelector('[data-testid="patch"]')).toBeNull()
    expect(files()[1]?.textContent).toContain('public/logo.png')
    expect(files()[1]?.textContent).toContain('Binary file')
    expect(files()[1]?.querySelector('[data-testid="patch"]')).toBeNull()

    click(buttonNamed('Show', files()[0]))
    await until(() => files()[0]?.querySelector('.d2h-file-wrapper') !== null)
    expect(files()[0]?.querySelectorAll('.d2h-ins').length).toBeGreaterThan(800)
  })

  it('restores a version with its data on Enter: its progress in the list, then the new version', async () => {
    const fake = fakeVersions([sampleVersion(2), sampleVersion(1, { hasDataSnapshot: true })], {
      holdRestore: true,
    })
    const onRestored = renderPanel({ openVersionId: 'version-1' })
    await until(() => pageText().includes('Restore this version'))
    click(buttonNamed('Restore this version'))
    expect(dialog()?.textContent).toContain('Restore version 1?')
    expect(dialog()?.textContent).toContain('the versions after it stay in the history')
    const checkbox = dialog()?.querySelector<HTMLInputElement>('input[type="checkbox"]')
    expect(checkbox?.parentElement?.textContent).toBe("Also restore the preview's data")
    click(checkbox)
    press(checkbox ?? null, 'Enter')

    // Issue 28: the restore takes 10–20 s; the list says what is happening meanwhile.
    expect(dialog()).toBeNull()
    await until(() => progress() !== null)
    expect(progress()?.getAttribute('role')).toBe('status')
    expect(progress()?.textContent).toContain('Restoring version 1…')
    expect(progress()?.textContent).toContain(
      "bringing back the files of version 1, and the preview's data with them",
    )
    await until(() => rows().length === 2)
    expect(onRestored).not.toHaveBeenCalled()

    fake.releaseRestore()
    await until(() => onRestored.mock.calls.length === 1)
    expect(fake.calls.find((call) => call.method === 'POST')).toMatchObject({
      url: '/api/applications/app-1/versions/version-1/restore',
      body: { restoreData: true },
    })
    expect(onRestored.mock.calls[0]?.[0]).toMatchObject({ number: 3, kind: 'restore' })
    await until(() => rows().length === 3 && progress() === null)
    expect(rows()[0]?.textContent).toContain('Restored version 1')
  })

  it('asks nothing about data without a snapshot, and Escape closes without restoring', async () => {
    const fake = fakeVersions([sampleVersion(1)])
    renderPanel({ openVersionId: 'version-1' })
    await until(() => pageText().includes('Restore this version'))
    click(buttonNamed('Restore this version'))
    expect(dialog()?.querySelector('input[type="checkbox"]')).toBeNull()
    press(document.activeElement, 'Escape')
    expect(dialog()).toBeNull()
    expect(fake.calls.some((call) => call.method === 'POST')).toBe(false)
  })

  it("shows the server's refusal while a run is going, and restores nothing", async () => {
    const refusal = 'A run is going in this app: restore once it has finished.'
    const fake = fakeVersions([sampleVersion(1)], {
      restoreRefusal: { status: 409, error: refusal },
    })
    const onRestored = renderPanel({ openVersionId: 'version-1' })
    await until(() => pageText().includes('Restore this version'))
    click(buttonNamed('Restore this version'))
    click(buttonNamed('Restore', dialog()))
    await until(() => alertText() === `Version 1 was not restored: ${refusal}`)
    expect(progress()).toBeNull()
    expect(onRestored).not.toHaveBeenCalled()
    expect(fake.calls.filter((call) => call.method === 'POST')).toHaveLength(1)
  })

  it("says 'Version not found' for a version the server does not know", async () => {
    fakeVersions([sampleVersion(1)])
    renderPanel({ openVersionId: 'version-of-another-app' })
    await until(() => pageText().includes('Version not found'))
  })
})

describe('RunChangesLink', () => {
  function renderLink(runId: string) {
    const onOpen = vi.fn()
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    render(
      <QueryClientProvider client={client}>
        <RunChangesLink applicationId="app-1" runId={runId} onOpen={onOpen} />
      </QueryClientProvider>,
    )
    return onOpen
  }

  it("links a run to its version's diff: '2 files changed'", async () => {
    const files = [
      { path: 'src/App.tsx', added: 1, removed: 0, status: 'modified' as const },
      { path: 'src/Todo.tsx', added: 9, removed: 0, status: 'added' as const },
    ]
    fakeVersions([sampleVersion(2, { files }), sampleVersion(1)])
    const onOpen = renderLink('run-2')
    await until(() => pageText().includes('2 files changed'))
    click(buttonNamed('2 files changed'))
    expect(onOpen).toHaveBeenCalledWith('version-2')
  })

  it('links an earlier run of the conversation to its own version, not the newest', async () => {
    fakeVersions([sampleVersion(3), sampleVersion(2), sampleVersion(1)])
    const onOpen = renderLink('run-1')
    await until(() => pageText().includes('1 file changed'))
    click(buttonNamed('1 file changed'))
    expect(onOpen).toHaveBeenCalledWith('version-1')
  })

  it("finds the run's version recorded after the list was read", async () => {
    const versions = [sampleVersion(1, { kind: 'start', conversationId: null })]
    const fake = fakeVersions(versions)
    renderLink('run-2')
    await until(() => fake.calls.length === 1)
    expect(pageText()).toBe('')
    versions.unshift(sampleVersion(2))
    await until(() => pageText().includes('1 file changed'))
  })

  it('shows nothing for a run that made no version, or whose version is a restore', async () => {
    const fake = fakeVersions([sampleVersion(2, { kind: 'restore' }), sampleVersion(1)])
    renderLink('run-9')
    renderLink('run-2')
    await until(() => fake.calls.length >= 1)
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50))
    })
    expect(pageText()).toBe('')
  })
})

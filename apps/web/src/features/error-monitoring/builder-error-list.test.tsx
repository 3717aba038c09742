import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { errorGroup, fakeErrorMonitoring } from '../../testing/fake-error-monitoring.ts'
import { cleanup, click, render } from '../../testing/render.tsx'
import { BuilderErrorList } from './builder-error-list.tsx'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const panel = () => document.querySelector<HTMLElement>('section[aria-label="Errors"]')
const text = () => panel()?.textContent ?? ''
const button = (name: string) => {
  const found = Array.from(panel()?.querySelectorAll('button') ?? []).find(
    (candidate) =>
      candidate.textContent?.trim() === name || candidate.firstElementChild?.textContent === name,
  )
  if (!found) throw new Error(`No button ${name} in: ${text()}`)
  return found
}

async function until(condition: () => boolean) {
  for (let attempt = 0; attempt < 200 && !condition(); attempt++) {
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5))
    })
  }
  expect(condition(), text()).toBe(true)
}

function renderList(onAskAgent = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={client}>
      <BuilderErrorList applicationId="app-1" onAskAgent={onAskAgent} />
    </QueryClientProvider>,
  )
  return onAskAgent
}

const groups = (count: number) =>
  Array.from({ length: count }, (_, index) =>
    errorGroup({
      id: `group-${index}`,
      error_type: `Error${index}`,
      representative_message: `boom ${index}`,
    }),
  )

describe('BuilderErrorList', () => {
  it("says 'No Errors' and 'All clear!' when the app has none", async () => {
    fakeErrorMonitoring([])
    renderList()
    await until(() => text().includes('All clear!'))
    expect(text()).toContain('No Errors')
  })

  it("heads the list with the true count, shows 3, and every error is reachable by '+N more'", async () => {
    const fake = fakeErrorMonitoring(groups(7))
    renderList()
    await until(() => text().includes('Errors (7)'))
    expect(text()).toContain('Error2: boom 2')
    expect(text()).not.toContain('Error3: boom 3')
    expect(fake.calls.map((call) => call.url)).toContain(
      '/api/applications/app-1/error-groups?status=active&limit=5',
    )
    click(button('+4 more'))
    await until(() => text().includes('Error4: boom 4'))
    expect(panel()?.dataset.expanded).toBe('true')
    click(button('Show more'))
    await until(() => text().includes('Error6: boom 6'))
    expect(text()).not.toContain('Show more')
  })

  it("says 'New error arriving…' when the preview reports one, and lists it", async () => {
    const listed = groups(1)
    fakeErrorMonitoring(listed)
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    render(
      <QueryClientProvider client={client}>
        <BuilderErrorList
          applicationId="app-1"
          onAskAgent={vi.fn()}
          previewOrigin="http://counter.preview.localhost:3000"
        />
      </QueryClientProvider>,
    )
    await until(() => text().includes('Errors (1)'))
    // A message from another origin is not the preview's.
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', { data: 'sprout-reporter:error', origin: 'http://evil.test' }),
      )
    })
    expect(text()).not.toContain('New error arriving…')
    listed.unshift(
      errorGroup({
        id: 'group-new',
        error_type: 'RangeError',
        last_seen_at: new Date().toISOString(),
      }),
    )
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          data: 'sprout-reporter:error',
          origin: 'http://counter.preview.localhost:3000',
        }),
      )
    })
    await until(() => text().includes('Errors (2)'))
    await until(() => !text().includes('New error arriving…'))
    expect(text()).toContain('RangeError')
  })

  it("says 'Error loading' when the list cannot be read", async () => {
    fakeErrorMonitoring([]).fail(true)
    renderList()
    await until(() => text().includes('Error loading'))
  })

  it('expands on a click, and asks the agent to fix one error or all of them', async () => {
    fakeErrorMonitoring(groups(2))
    const onAskAgent = renderList()
    await until(() => text().includes('Errors (2)'))
    click(button('Error1: boom 1'))
    expect(panel()?.dataset.expanded).toBe('true')
    const details = panel()?.querySelector('[data-testid="error-details"]')?.textContent ?? ''
    expect(details).toContain('at showHistory (src/App.tsx:15:35)')
    expect(details).toContain('http://counter.preview.localhost/')

    click(button('Ask agent to fix this error'))
    const one = String(onAskAgent.mock.calls[0]?.[0])
    expect(one).toContain('Please fix this error in the app:')
    expect(one).toContain('Error: boom 1\nType: Error1\nGroup: group-1\nLast seen: ')
    expect(one).toContain('Page: /')
    expect(one).not.toContain('preview.localhost')
    expect(one).toContain('Stack:\n  at showHistory (src/App.tsx:15:35)')

    click(button('Ask agent to fix'))
    const all = String(onAskAgent.mock.calls[1]?.[0])
    expect(all).toContain('Please fix these 2 errors in the app:')
    expect(all).toContain('Group: group-0')
    expect(all).toContain('Group: group-1')

    click(button('Collapse'))
    expect(panel()?.dataset.expanded).toBe('false')
  })
})

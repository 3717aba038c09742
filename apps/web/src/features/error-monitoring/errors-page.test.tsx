import type { ErrorGroupStatus } from '@sprout/protocol/api/error-monitoring.ts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { errorGroup, fakeErrorMonitoring } from '../../testing/fake-error-monitoring.ts'
import { buttonNamed, cleanup, click, render, until } from '../../testing/render.tsx'
import { ErrorsPage } from './errors-page.tsx'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

const text = () => document.body.textContent ?? ''
const dialog = () => document.querySelector<HTMLElement>('[role="dialog"]')

/** The page with its filter kept as the route keeps it (in the address, here in state). */
function PageWithFilter() {
  const [filter, setFilter] = useState<{
    status: ErrorGroupStatus
    applicationId: string | undefined
  }>({ status: 'active', applicationId: undefined })
  return (
    <ErrorsPage
      applications={[
        { id: 'app-1', name: 'Counter' },
        { id: 'app-2', name: 'Shop' },
      ]}
      status={filter.status}
      applicationId={filter.applicationId}
      onFilterChange={setFilter}
    />
  )
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  return render(
    <QueryClientProvider client={client}>
      <PageWithFilter />
    </QueryClientProvider>,
  )
}

describe('ErrorsPage', () => {
  it('shows cards with badge, type, count and relative times, per tab and application', async () => {
    const fake = fakeErrorMonitoring([
      errorGroup({ occurrence_count: 1 }),
      errorGroup({
        id: 'group-2',
        application_id: 'app-2',
        application_name: 'Shop',
        error_type: 'RangeError',
        occurrence_count: 7,
      }),
      errorGroup({ id: 'group-3', status: 'ignored', error_type: 'SyntaxError' }),
    ])
    renderPage()
    expect(document.querySelector('h1')?.textContent).toBe('Error Monitoring')
    await until(() => text().includes('RangeError'))
    const cards = document.querySelectorAll('[aria-label="Error groups"] > li')
    expect(cards).toHaveLength(2)
    expect(cards[0]?.textContent).toContain('Active')
    expect(cards[0]?.textContent).toContain('1 occurrence')
    expect(cards[0]?.textContent).toContain('First seen 3h')
    expect(cards[0]?.textContent).toContain('Last seen 5m')
    expect(cards[1]?.textContent).toContain('7 occurrences')

    const select = document.querySelector<HTMLSelectElement>('select[aria-label="Application"]')
    act(() => {
      if (!select) return
      select.value = 'app-2'
      select.dispatchEvent(new Event('change', { bubbles: true }))
    })
    await until(() => !text().includes('TypeError'))
    expect(fake.calls.at(-1)?.url).toContain('application_id=app-2')

    click(buttonNamed('Ignored'))
    await until(() => text().includes('No ignored errors'))
    expect(text()).toContain('Your application is running smoothly')
    act(() => {
      if (!select) return
      select.value = ''
      select.dispatchEvent(new Event('change', { bubbles: true }))
    })
    await until(() => text().includes('SyntaxError'))
    expect(fake.calls.every((call) => call.url.includes('limit=50'))).toBe(true)
  })

  it("says 'Failed to load errors' with a Retry that loads again", async () => {
    const fake = fakeErrorMonitoring([errorGroup()])
    fake.fail(true)
    renderPage()
    await until(() => text().includes('Failed to load errors'))
    fake.fail(false)
    click(buttonNamed('Retry'))
    await until(() => text().includes('TypeError'))
  })

  it('opens the details: status buttons, stack, 10 occurrences that expand', async () => {
    const fake = fakeErrorMonitoring([errorGroup()])
    renderPage()
    await until(() => text().includes('TypeError'))
    click(document.querySelector('[aria-label="Error groups"] button'))
    await until(() => document.querySelectorAll('[data-testid="error-occurrence"]').length === 10)
    const modal = dialog() as HTMLElement
    expect(modal.textContent).toContain("Cannot read properties of undefined (reading 'length')")
    expect(modal.textContent).toContain('at showHistory (src/App.tsx:15:35)')
    expect(buttonNamed('Reopen', modal).disabled).toBe(true)
    expect(buttonNamed('Ignore', modal).disabled).toBe(false)

    const first = modal.querySelector('[data-testid="error-occurrence"] button')
    click(first)
    const opened = modal.querySelector('[data-testid="error-occurrence"]')?.textContent ?? ''
    expect(opened).toContain('Context')
    expect(opened).toContain('?visit=0')
    expect(opened).toContain('Session')
    expect(opened).toContain('abc123')
    expect(opened).toContain('at frame0 (src/App.tsx:0:1)')

    click(buttonNamed('Mark as Resolved', modal))
    await until(() => buttonNamed('Mark as Resolved', modal).disabled)
    expect(buttonNamed('Reopen', modal).disabled).toBe(false)
    expect(fake.calls).toContainEqual({
      method: 'PATCH',
      url: '/api/errors/groups/group-1/status',
      body: { status: 'resolved' },
    })
    // The active list no longer has it; the dialog stays open on the group.
    await until(() => text().includes('No active errors'))
    expect(dialog()).not.toBeNull()
  })
  it('closes the details with its Close button and with Escape', async () => {
    fakeErrorMonitoring([errorGroup()])
    renderPage()
    await until(() => text().includes('TypeError'))
    const open = () => click(document.querySelector('[aria-label="Error groups"] button'))
    open()
    await until(() => dialog() !== null)
    click(buttonNamed('Close', dialog() as HTMLElement))
    await until(() => dialog() === null)
    open()
    await until(() => dialog() !== null)
    act(() => {
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
    })
    await until(() => dialog() === null)
  })
})

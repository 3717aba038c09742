import type { AuditEvent } from '@sprout/protocol/api/audit.ts'
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { buttonNamed, cleanup, click, pageText, until } from '../../testing/render.tsx'
import { renderScreen } from '../../testing/render-screen.tsx'
import { AdminAuditPanel } from './admin-audit-panel.tsx'
import type { AuditAnswer } from './audit-api.ts'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const auditEvent = (overrides: Partial<AuditEvent> = {}): AuditEvent => ({
  id: 'event-1',
  at: '2026-11-26T10:00:00.000Z',
  action: 'vault.set',
  actor: { id: 'user-1', email: 'ada@example.com' },
  organization_id: 'organization-1',
  target: { type: 'vault-entry', id: 'entry-1', label: 'STRIPE_KEY' },
  address: '203.0.113.7',
  user_agent: 'Firefox',
  details: { environment: 'production' },
  ...overrides,
})

/** GET /api/admin/audit: `pages[before ?? '']` answers each page; every address asked is kept. */
function fakeAudit(pages: Record<string, AuditAnswer>) {
  const asked: URL[] = []
  vi.stubGlobal('fetch', async (input: string) => {
    const url = new URL(input, 'http://localhost')
    const json = (status: number, value: unknown) =>
      new Response(JSON.stringify(value), {
        status,
        headers: { 'Content-Type': 'application/json' },
      })
    if (url.pathname !== '/api/admin/audit') return json(404, { error: 'Not found' })
    asked.push(url)
    const page = pages[url.searchParams.get('before') ?? '']
    return page ? json(200, page) : json(400, { error: 'before: not a page cursor of this log' })
  })
  return { asked }
}

/** The form control whose label reads `name`. */
function fieldLabelled(name: string): HTMLInputElement | HTMLSelectElement {
  const label = [...document.querySelectorAll('label')].find((each) => each.textContent === name)
  const field = label && document.getElementById(label.htmlFor)
  if (!(field instanceof HTMLInputElement || field instanceof HTMLSelectElement)) {
    throw new Error(`No field labelled ${name}`)
  }
  return field
}

/** Sets a field as a person would, so that React sees the change. */
function fill(name: string, value: string) {
  const field = fieldLabelled(name)
  const prototype = field instanceof HTMLSelectElement ? HTMLSelectElement : HTMLInputElement
  act(() => {
    Object.getOwnPropertyDescriptor(prototype.prototype, 'value')?.set?.call(field, value)
    field.dispatchEvent(
      new Event(field instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }),
    )
  })
}

const exportLink = () => {
  const link = [...document.querySelectorAll('a')].find((each) => each.textContent === 'Export')
  if (!link) throw new Error(`No Export link in: ${pageText()}`)
  return new URL(link.href, 'http://localhost')
}

const table = () => document.querySelector('table')
const rows = () => [...document.querySelectorAll('tbody tr')]

describe('AdminAuditPanel', () => {
  it('shows the events, with their actor, target and details', async () => {
    fakeAudit({ '': { events: [auditEvent()], next: null, failed_writes: 0 } })
    renderScreen(<AdminAuditPanel />)
    await until(() => rows().length === 1)
    expect(table()?.querySelector('caption')?.textContent).toBe('Audit events')
    expect([...document.querySelectorAll('th')].map((cell) => cell.textContent)).toEqual([
      'Time',
      'Action',
      'Actor',
      'Target',
      'Organization',
      'Address',
      'Details',
    ])
    const cells = [...(rows()[0]?.querySelectorAll('td') ?? [])].map((cell) => cell.textContent)
    expect(cells.slice(1)).toEqual([
      'vault.set',
      'ada@example.com',
      'STRIPE_KEY',
      'organization-1',
      '203.0.113.7',
      'environment:production',
    ])
    expect(document.querySelector('time')?.getAttribute('title')).toBe('2026-11-26T10:00:00.000Z')
    expect(pageText()).not.toContain('could not be written')
    expect(buttonNamedOrUndefined('Load more')).toBeUndefined()
  })

  it('turns the filters into the query string, and the export link into the same with jsonl', async () => {
    const server = fakeAudit({ '': { events: [], next: null, failed_writes: 0 } })
    renderScreen(<AdminAuditPanel />)
    await until(() => pageText().includes('No events match these filters.'))
    fill('Actor', 'ada@example.com')
    fill('Organization', 'organization-1')
    fill('Action', 'user.banned')
    fill('From', '2026-11-01')
    fill('To', '2026-11-30')
    const expected = {
      actor: 'ada@example.com',
      organization: 'organization-1',
      action: 'user.banned',
      // Local days; 'To' includes its own.
      from: new Date(2026, 10, 1).toISOString(),
      to: new Date(2026, 11, 1).toISOString(),
    }
    const lastAsked = () => Object.fromEntries(server.asked.at(-1)?.searchParams ?? [])
    await until(() => JSON.stringify(lastAsked()) === JSON.stringify(expected))
    expect(lastAsked()).toEqual(expected)
    const link = exportLink()
    expect(link.pathname).toBe('/api/admin/audit')
    expect(Object.fromEntries(link.searchParams)).toEqual({ ...expected, format: 'jsonl' })
  })

  it('appends the next page with before= when Load more is clicked', async () => {
    const server = fakeAudit({
      '': {
        events: [auditEvent({ id: 'event-2' }), auditEvent({ id: 'event-1', action: 'sign-in' })],
        next: 'cursor-1',
        failed_writes: 0,
      },
      'cursor-1': {
        events: [
          auditEvent({ id: 'event-0', action: 'sign-up', actor: { id: null, email: null } }),
        ],
        next: null,
        failed_writes: 0,
      },
    })
    renderScreen(<AdminAuditPanel />)
    await until(() => rows().length === 2)
    fill('Action', 'sign-in')
    await until(() => server.asked.at(-1)?.searchParams.get('action') === 'sign-in')
    await until(() => buttonNamedOrUndefined('Load more') !== undefined)
    click(buttonNamed('Load more'))
    await until(() => rows().length === 3)
    expect(server.asked.at(-1)?.searchParams.get('before')).toBe('cursor-1')
    expect(server.asked.at(-1)?.searchParams.get('action')).toBe('sign-in')
    expect(rows()[2]?.querySelectorAll('td')[2]?.textContent).toBe('—')
    expect(buttonNamedOrUndefined('Load more')).toBeUndefined()
  })

  it('says when no event matches', async () => {
    fakeAudit({ '': { events: [], next: null, failed_writes: 0 } })
    renderScreen(<AdminAuditPanel />)
    await until(() => pageText().includes('No events match these filters.'))
    expect(table()).toBeNull()
  })

  it('warns of the events the server could not write', async () => {
    fakeAudit({ '': { events: [auditEvent()], next: null, failed_writes: 3 } })
    renderScreen(<AdminAuditPanel />)
    await until(() => rows().length === 1)
    expect(pageText()).toContain(
      '3 audit events could not be written since this server started; see the server log.',
    )
  })

  it('shows a refused request as an alert', async () => {
    vi.stubGlobal(
      'fetch',
      async () =>
        new Response(JSON.stringify({ error: 'from: Invalid ISO date' }), {
          status: 400,
          headers: { 'Content-Type': 'application/json' },
        }),
    )
    renderScreen(<AdminAuditPanel />)
    await until(() => document.querySelector('[role="alert"]') !== null)
    expect(document.querySelector('[role="alert"]')?.textContent).toBe('from: Invalid ISO date')
  })
})

function buttonNamedOrUndefined(name: string) {
  try {
    return buttonNamed(name)
  } catch {
    return undefined
  }
}

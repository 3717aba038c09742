import type { AdminUser } from '@sprout/protocol/api/admin-users.ts'
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { buttonNamed, cleanup, click, pageText, until } from '../../../testing/render.tsx'
import { renderScreen } from '../../../testing/render-screen.tsx'
import { UsersPanel } from './users-panel.tsx'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const person = (index: number, extra: Partial<AdminUser> = {}): AdminUser => ({
  id: `user-${index}`,
  name: `Person ${index}`,
  email: `person-${index}@example.com`,
  role: 'user',
  isAdmin: false,
  banned: false,
  banReason: null,
  organizations: ['Personal'],
  createdAt: new Date(Date.UTC(2026, 10, 20, 12, index)).toISOString(),
  lastSeenAt: null,
  ...extra,
})

type Call = { method: string; path: string; search: URLSearchParams; body?: unknown }

/** GET /api/admin/users over `everyone` (50 a page, `query` in the email), and the actions. */
function fakeUsers(everyone: AdminUser[], mailConfigured = false) {
  const calls: Call[] = []
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const parsed = new URL(url, 'http://localhost')
    const method = init.method ?? 'GET'
    const body = init.body ? JSON.parse(String(init.body)) : undefined
    calls.push({ method, path: parsed.pathname, search: parsed.searchParams, body })
    const json = (value: unknown, status = 200) =>
      new Response(JSON.stringify(value), {
        status,
        headers: { 'Content-Type': 'application/json' },
      })
    if (parsed.pathname === '/api/admin/users') {
      const query = parsed.searchParams.get('query') ?? ''
      const page = Number(parsed.searchParams.get('page'))
      const matching = everyone.filter((user) => user.email.includes(query))
      const users = matching.slice((page - 1) * 50, page * 50)
      return json({ users, total: matching.length, page, pageSize: 50, mailConfigured })
    }
    const [, , , , id, action] = parsed.pathname.split('/')
    const user = everyone.find((candidate) => candidate.id === id)
    if (!user) return json({ error: 'User not found' }, 404)
    if (action === 'ban') Object.assign(user, { banned: true, banReason: body.reason })
    if (action === 'reset-link') return json({ url: 'http://localhost/reset-password?token=t' })
    return json(user)
  })
  return calls
}

const menuItem = (label: string) =>
  [...document.querySelectorAll<HTMLButtonElement>('[role="menuitem"]')].find((item) =>
    item.textContent?.startsWith(label),
  )

function type(element: HTMLInputElement, value: string) {
  act(() => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(element, value)
    element.dispatchEvent(new Event('input', { bubbles: true }))
  })
}

describe('UsersPanel', () => {
  it('shows a page of users with their columns and pages on', async () => {
    const calls = fakeUsers([
      person(0, { role: 'admin', isAdmin: true, organizations: ['Personal', 'Acme'] }),
      person(1, { banned: true, banReason: 'Spam' }),
      ...Array.from({ length: 58 }, (_, index) => person(index + 2)),
    ])
    renderScreen(<UsersPanel />)
    await until(() => pageText().includes('1–50 of 60'))
    const headers = [...document.querySelectorAll('th')].map((cell) => cell.textContent)
    expect(headers).toEqual([
      'Name',
      'Email',
      'Role',
      'Organizations',
      'Created',
      'Last seen',
      'Actions',
    ])
    const first = document.querySelectorAll('tbody tr')[0]?.textContent ?? ''
    expect(first).toContain('Admin')
    expect(first).toContain('Personal, Acme')
    expect(first).toContain('Never')
    expect(document.querySelectorAll('tbody tr')[1]?.textContent).toContain('BannedSpam')
    expect(buttonNamed('Previous').disabled).toBe(true)
    click(buttonNamed('Next'))
    await until(() => pageText().includes('51–60 of 60'))
    expect(calls.at(-1)?.search.get('page')).toBe('2')
    expect(buttonNamed('Next').disabled).toBe(true)
  })

  it('searches once typing pauses, from the first page', async () => {
    const calls = fakeUsers([person(1), person(2), person(12)])
    renderScreen(<UsersPanel />)
    await until(() => pageText().includes('1–3 of 3'))
    const search = document.querySelector<HTMLInputElement>('input[aria-label="Search users"]')
    if (!search) throw new Error('no search box')
    type(search, 'person-1')
    type(search, 'person-12')
    await until(() => pageText().includes('1–1 of 1'))
    const searches = calls.filter((call) => call.search.has('query'))
    expect(searches.map((call) => call.search.get('query'))).toEqual(['person-12'])
    type(search, 'nobody')
    await until(() => pageText().includes('Nobody matches this search.'))
  })

  it('bans with a reason on Enter, and Escape closes the dialog without a call', async () => {
    const calls = fakeUsers([person(1)])
    renderScreen(<UsersPanel />)
    await until(() => pageText().includes('1–1 of 1'))
    click(buttonNamed('Actions for person-1@example.com'))
    click(menuItem('Ban...'))
    const reason = document.querySelector<HTMLInputElement>('[role="dialog"] input[name="reason"]')
    if (!reason) throw new Error('no reason field')
    act(() => {
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
    })
    expect(document.querySelector('[role="dialog"]')).toBeNull()
    expect(calls.filter((call) => call.method === 'POST')).toEqual([])

    click(buttonNamed('Actions for person-1@example.com'))
    click(menuItem('Ban...'))
    const field = document.querySelector<HTMLInputElement>('[role="dialog"] input[name="reason"]')
    if (!field) throw new Error('no reason field')
    type(field, 'Spam links')
    act(() => {
      field.form?.requestSubmit()
    })
    await until(() => pageText().includes('Person 1 is banned.'))
    expect(calls.find((call) => call.method === 'POST')).toMatchObject({
      path: '/api/admin/users/user-1/ban',
      body: { reason: 'Spam links' },
    })
    await until(() => pageText().includes('BannedSpam links'))
  })

  it('offers a reset mail only when mail is configured, and shows a copied reset link', async () => {
    fakeUsers([person(1)])
    renderScreen(<UsersPanel />)
    await until(() => pageText().includes('1–1 of 1'))
    click(buttonNamed('Actions for person-1@example.com'))
    const mail = menuItem('Send reset mail')
    expect(mail?.disabled).toBe(true)
    expect(mail?.textContent).toContain('Mail is not configured (SMTP_URL)')
    click(menuItem('Copy reset link'))
    const link = () => document.querySelector<HTMLInputElement>('input[aria-label="Reset link"]')
    await until(() => link() !== null)
    expect(link()?.value).toBe('http://localhost/reset-password?token=t')
    expect(pageText()).toContain('person-1@example.com')
  })
})

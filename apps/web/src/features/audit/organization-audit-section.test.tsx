import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, click, pageText, until } from '../../testing/render.tsx'
import { renderScreen } from '../../testing/render-screen.tsx'
import type { ResolvedOrganization } from '../organizations/organization-types.ts'

const organization: ResolvedOrganization = {
  organizationId: 'organization-1',
  externalOrganizationId: 'organization-1',
  isPersonal: false,
  name: 'Acme',
}

type Asked = { path: string; search: URLSearchParams; organizationHeader: string | null }

// The signed-in user's role in Acme, as better-auth lists its members.
let role = 'member'
const asked: Asked[] = []

// better-auth's client keeps the fetch it finds when it is made: the fake goes in first.
vi.stubGlobal('fetch', fakeServer())
const { OrganizationAuditSection } = await import('./organization-audit-section.tsx')
const { useCanManageOrganization } = await import('../organizations/use-can-manage-organization.ts')

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
  asked.length = 0
})

function fakeServer() {
  return async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost')
    const headers = new Headers(input instanceof Request ? input.headers : init.headers)
    asked.push({
      path: url.pathname,
      search: url.searchParams,
      organizationHeader: headers.get('Organization-ID'),
    })
    const json = (value: unknown, status = 200) =>
      new Response(JSON.stringify(value), {
        status,
        headers: { 'Content-Type': 'application/json' },
      })
    if (url.pathname === '/api/auth/get-session') {
      return json({
        session: { id: 'session-1', userId: 'user-1', activeOrganizationId: 'organization-1' },
        user: { id: 'user-1', email: 'ada@example.com', name: 'Ada' },
      })
    }
    if (url.pathname === '/api/auth/organization/list-members') {
      return json({
        members: [
          {
            id: 'member-1',
            userId: 'user-1',
            role,
            user: { name: 'Ada', email: 'ada@example.com' },
          },
        ],
        total: 1,
      })
    }
    if (url.pathname === '/api/organization/audit' && url.searchParams.get('format') === 'jsonl') {
      return new Response('{"id":"event-1"}\n', {
        headers: {
          'Content-Type': 'application/jsonl',
          'Content-Disposition': 'attachment; filename="sprout-audit.jsonl"',
        },
      })
    }
    if (url.pathname === '/api/organization/audit') {
      return json({ events: [], next: null, failed_writes: 0 })
    }
    return json({ error: 'Not found' }, 404)
  }
}

/** The settings screen's part: the section is there for whom useCanManageOrganization allows. */
function SettingsAudit() {
  const canManage = useCanManageOrganization(organization)
  return (
    <OrganizationAuditSection organizationId={organization.organizationId} canRead={canManage} />
  )
}

const asksForAudit = () => asked.some((each) => each.path === '/api/organization/audit')

describe('OrganizationAuditSection', () => {
  it('is not shown to a plain member, who is not asked about', async () => {
    role = 'member'
    renderScreen(<SettingsAudit />)
    await until(() => asked.some((each) => each.path === '/api/auth/organization/list-members'))
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50))
    })
    expect(pageText()).not.toContain('Audit log')
    expect(asksForAudit()).toBe(false)
  })

  it('shows an admin the organization’s events, without an Organization filter', async () => {
    role = 'admin'
    renderScreen(<SettingsAudit />)
    await until(() => pageText().includes('No events match these filters.'))
    expect(document.querySelector('h2')?.textContent).toBe('Audit log')
    const labels = [...document.querySelectorAll('label')].map((label) => label.textContent)
    expect(labels).toEqual(['Actor', 'Action', 'From', 'To'])
    const audit = asked.find((each) => each.path === '/api/organization/audit')
    expect(audit?.organizationHeader).toBe('organization-1')
  })

  it('exports with the organization’s header, as the server names the file', async () => {
    role = 'owner'
    renderScreen(<SettingsAudit />)
    await until(() => pageText().includes('No events match these filters.'))
    const saved: string[] = []
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:fake')
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(this.download)
    })
    const link = [...document.querySelectorAll('a')].find((each) => each.textContent === 'Export')
    expect(link?.getAttribute('href')).toBe('/api/organization/audit?format=jsonl')
    click(link)
    await until(() => saved.length === 1)
    expect(saved).toEqual(['sprout-audit.jsonl'])
    const exported = asked.find((each) => each.search.get('format') === 'jsonl')
    expect(exported?.organizationHeader).toBe('organization-1')
  })
})

import type { Application } from '@sprout/protocol/api/applications.ts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, click, pageText, render, until } from '../../testing/render.tsx'
import { useApplication } from './use-application.ts'
import { useUpdateApplicationAccess } from './use-update-application-access.ts'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

/** One application behind a stubbed fetch: GET reads it, PATCH changes who may open it. */
function fakeApplication() {
  const application: Application = {
    id: 'app-1',
    name: 'Todo list',
    preview_url: 'http://todo-list.preview.test',
    model: 'test-model',
    created_at: '2026-11-25T08:00:00Z',
    visibility: 'organization',
    allowed_emails: [],
    visibility_choices: ['public', 'organization', 'people'],
  }
  vi.stubGlobal('fetch', async (_url: string, init: RequestInit = {}) => {
    if (init.method === 'PATCH') Object.assign(application, JSON.parse(String(init.body)))
    const { visibility, allowed_emails } = application
    const body = init.method === 'PATCH' ? { visibility, allowed_emails } : application
    return new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } })
  })
}

function Visibility() {
  const application = useApplication('organization-1', 'app-1')
  const update = useUpdateApplicationAccess('app-1')
  return (
    <button
      type="button"
      onClick={() => update.mutate({ visibility: 'people', allowed_emails: ['ada@example.com'] })}
    >
      {application.data
        ? `${application.data.visibility}: ${application.data.allowed_emails.join(', ')}`
        : 'loading'}
    </button>
  )
}

describe('useUpdateApplicationAccess', () => {
  it('reads the application again once saved', async () => {
    fakeApplication()
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    const container = render(
      <QueryClientProvider client={client}>
        <Visibility />
      </QueryClientProvider>,
    )
    await until(() => pageText().includes('organization:'))
    click(container.querySelector('button'))
    await until(() => pageText().includes('people: ada@example.com'))
    expect(pageText()).toBe('people: ada@example.com')
  })
})

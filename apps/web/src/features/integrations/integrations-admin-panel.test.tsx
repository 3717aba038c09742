import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { adminIntegration, fakeIntegrations } from '../../testing/fake-integrations.ts'
import { buttonNamed, cleanup, click, render, until } from '../../testing/render.tsx'
import { IntegrationsAdminPanel } from './integrations-admin-panel.tsx'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const text = () => document.body.textContent ?? ''
const dialog = () => document.querySelector<HTMLElement>('[role="dialog"]')
function field(label: string): HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement {
  const labelElement = Array.from(document.querySelectorAll('label')).find((candidate) =>
    candidate.textContent?.trim().startsWith(label),
  )
  const control =
    (labelElement?.htmlFor && document.getElementById(labelElement.htmlFor)) ||
    labelElement?.querySelector('select')
  if (!control) throw new Error(`No field ${label}`)
  return control as HTMLInputElement
}
function type(label: string, value: string) {
  const control = field(label)
  act(() => {
    const prototype = Object.getPrototypeOf(control) as object
    Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(control, value)
    control.dispatchEvent(
      new Event(control instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }),
    )
  })
}
/** The text under a field (its error or hint). */
const note = (label: string) => {
  const id = field(label).getAttribute('aria-describedby')
  return id ? (document.getElementById(id)?.textContent ?? '') : ''
}

function renderPanel() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={client}>
      <IntegrationsAdminPanel />
    </QueryClientProvider>,
  )
}

describe('IntegrationsAdminPanel', () => {
  it('lists service, truncated client id, URL hosts and scopes', async () => {
    fakeIntegrations({
      admin: [
        adminIntegration({
          client_id: 'abcdefghijklmnopqrstuvwxyz',
          auth_url: 'https://auth.example.com/authorize',
          token_url: 'https://token.example.com/token',
        }),
      ],
    })
    renderPanel()
    await until(() => text().includes('abcdefghijklmnopqrst...'))
    const headers = Array.from(document.querySelectorAll('th')).map((cell) => cell.textContent)
    expect(headers).toEqual([
      'Service Name',
      'Client ID',
      'Auth URL',
      'Token URL',
      'Scopes',
      'Edit',
    ])
    const row = document.querySelector('tr[aria-label="linear"]')?.textContent ?? ''
    expect(row).toContain('auth.example.com')
    expect(row).toContain('token.example.com')
    expect(row).toContain('read, write')
    expect(row).not.toContain('/authorize')
  })

  it('says what each field needs before sending anything', async () => {
    const fake = fakeIntegrations({})
    renderPanel()
    await until(() => text().includes('No integrations yet'))
    click(buttonNamed('Add Integration'))
    click(buttonNamed('Save', dialog() ?? document))
    expect(note('Service Name')).toBe('Service name is required')
    expect(note('Client ID')).toBe('Client ID is required')
    expect(note('Client Secret')).toBe('Client Secret is required')
    expect(note('Auth URL')).toBe('Auth URL is required')
    expect(note('Token URL')).toBe('Token URL is required')

    type('Auth URL', 'not a url')
    type('Token URL', 'https://token.example.com/token')
    type('Revoke URL', 'also not a url')
    type('Additional Parameters', '{"prompt": ')
    click(buttonNamed('Save', dialog() ?? document))
    expect(note('Auth URL')).toBe('Invalid URL format')
    expect(note('Token URL')).toBe('')
    expect(note('Revoke URL')).toBe('Invalid URL format')
    expect(note('Additional Parameters')).toBe('Invalid JSON format')
    expect(fake.calls.filter((call) => call.method !== 'GET')).toEqual([])
  })

  it('fills a preset, splits the scopes and creates the integration', async () => {
    const fake = fakeIntegrations({})
    renderPanel()
    await until(() => text().includes('No integrations yet'))
    click(buttonNamed('Add Integration'))
    await until(() => text().includes('Google Sheets'))
    type('Preset', 'google-sheets')
    expect(field('Service Name').value).toBe('google-sheets')
    expect(field('Auth URL').value).toBe('https://accounts.google.com/o/oauth2/v2/auth')
    expect(JSON.parse(field('Additional Parameters').value)).toEqual({
      access_type: 'offline',
      prompt: 'consent',
    })
    type('Client ID', ' 123-abc.apps.googleusercontent.com ')
    type('Client Secret', 'shh')
    type('Scopes', ' drive.file, ,spreadsheets ,')
    click(buttonNamed('Save', dialog() ?? document))
    await until(() => dialog() === null)
    const post = fake.calls.find((call) => call.method === 'POST')
    expect(post?.url).toBe('/api/admin/integrations')
    expect(post?.headers.has('Organization-ID')).toBe(false)
    expect(post?.body).toMatchObject({
      service_name: 'google-sheets',
      display_name: 'Google Sheets',
      client_id: '123-abc.apps.googleusercontent.com',
      client_secret: 'shh',
      scopes: ['drive.file', 'spreadsheets'],
      additional_params: { access_type: 'offline', prompt: 'consent' },
      preset: 'google-sheets',
    })
    await until(() => document.querySelector('tr[aria-label="google-sheets"]') !== null)
  })

  it('edits with the service name locked; a blank secret keeps the stored one', async () => {
    const fake = fakeIntegrations({ admin: [adminIntegration()] })
    renderPanel()
    await until(() => text().includes('linear'))
    click(buttonNamed('Edit'))
    expect(field('Service Name').disabled).toBe(true)
    expect(note('Client Secret')).toBe('Leave blank to keep the current secret')
    type('Scopes', 'read')
    click(buttonNamed('Save', dialog() ?? document))
    await until(() => dialog() === null)
    const put = fake.calls.find((call) => call.method === 'PUT')
    expect(put?.url).toBe('/api/admin/integrations/linear')
    expect(put?.body).not.toHaveProperty('client_secret')
    expect(put?.body).toMatchObject({ service_name: 'linear', scopes: ['read'] })
  })

  it("alerts 'Failed to save integration:' and the server's reason", async () => {
    const fake = fakeIntegrations({ admin: [adminIntegration()] })
    const alert = vi.fn()
    vi.stubGlobal('alert', alert)
    fake.force('PUT /api/admin/integrations/linear', {
      status: 400,
      body: { error: 'Token URL is required' },
    })
    renderPanel()
    await until(() => text().includes('linear'))
    click(buttonNamed('Edit'))
    click(buttonNamed('Save', dialog() ?? document))
    await until(() => alert.mock.calls.length > 0)
    expect(alert).toHaveBeenCalledWith('Failed to save integration: Token URL is required')
    expect(dialog()).not.toBeNull()
  })
})

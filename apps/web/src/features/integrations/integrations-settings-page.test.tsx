import { INTEGRATION_ERROR_MESSAGES } from '@sprout/protocol/api/integrations.ts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeIntegrations, userIntegration } from '../../testing/fake-integrations.ts'
import { buttonNamed, cleanup, click, render, until } from '../../testing/render.tsx'
import {
  type CallbackOutcome,
  IntegrationsSettingsPage,
  PICKER_BANNER_MS,
} from './integrations-settings-page.tsx'
import { PICKER_LOAD_FAILED, PICKER_TITLE } from './spreadsheet-picker.ts'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  vi.useRealTimers()
})

const text = () => document.body.textContent ?? ''
const dialog = () => document.querySelector<HTMLElement>('[role="dialog"]')
const card = (name: string) => document.querySelector<HTMLElement>(`li[aria-label="${name}"]`)

function renderPage(callback?: CallbackOutcome, pickerScriptUrl?: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={client}>
      <IntegrationsSettingsPage
        organizationId="org-1"
        callback={callback}
        pickerScriptUrl={pickerScriptUrl}
      />
    </QueryClientProvider>,
  )
}

const sheets = userIntegration({
  service_name: 'google-sheets',
  display_name: 'Google Sheets',
  scopes: ['https://www.googleapis.com/auth/drive.file'],
  preset: 'google-sheets',
  connected: true,
  client_id: '42-abc.apps.googleusercontent.com',
})

/** The Picker API's stand-in: picks `count` files, and records what the page built. */
function standInPicker(count: number) {
  const built: { title?: string; token?: string; appId?: string; multiselect?: boolean } = {}
  class PickerBuilder {
    callback: (data: { action: string; docs?: unknown[] }) => void = () => {}
    addView() {
      return this
    }
    enableFeature(feature: string) {
      built.multiselect = feature === 'multiselect'
      return this
    }
    setOAuthToken(token: string) {
      built.token = token
      return this
    }
    setAppId(appId: string) {
      built.appId = appId
      return this
    }
    setTitle(title: string) {
      built.title = title
      return this
    }
    setCallback(callback: PickerBuilder['callback']) {
      this.callback = callback
      return this
    }
    build() {
      return {
        setVisible: () =>
          setTimeout(() => this.callback({ action: 'picked', docs: Array(count).fill({}) })),
      }
    }
  }
  vi.stubGlobal('gapi', {
    load: (_name: string, options: { callback: () => void }) => options.callback(),
  })
  vi.stubGlobal('google', {
    picker: {
      PickerBuilder,
      DocsView: class {},
      ViewId: { SPREADSHEETS: 'spreadsheets' },
      Feature: { MULTISELECT_ENABLED: 'multiselect' },
      Action: { PICKED: 'picked', CANCEL: 'cancel' },
    },
  })
  return built
}

describe('IntegrationsSettingsPage', () => {
  it('lists integrations by service_name with their subtitle and status', async () => {
    fakeIntegrations({
      user: [
        userIntegration({ service_name: 'linear', display_name: 'Linear', connected: true }),
        userIntegration({ service_name: 'hubspot', display_name: 'HubSpot', scopes: ['crm'] }),
        sheets,
      ],
    })
    renderPage()
    await until(() => card('Linear') !== null)
    const names = Array.from(document.querySelectorAll('li[aria-label]')).map((item) =>
      item.getAttribute('aria-label'),
    )
    expect(names).toEqual(['Google Sheets', 'HubSpot', 'Linear'])
    expect(card('Google Sheets')?.textContent).toContain('File-specific access')
    expect(card('HubSpot')?.textContent).toContain('crm')
    expect(card('HubSpot')?.textContent).toContain('Not Connected')
    expect(card('Linear')?.textContent).toContain('Read / write permissions')
    expect(card('Linear')?.textContent).toContain('Connected')
    expect(buttonNamed('Disconnect', card('Linear'))).toBeTruthy()
    expect(buttonNamed('Select Files', card('Google Sheets'))).toBeTruthy()
    expect(() => buttonNamed('Select Files', card('Linear'))).toThrow()
  })

  it('says when there is nothing to connect, or the list failed', async () => {
    const fake = fakeIntegrations({ user: [] })
    renderPage()
    await until(() => text().includes('No integrations available'))
    cleanup()
    fake.force('GET /api/integrations', { status: 500, body: { error: 'boom' } })
    renderPage()
    await until(() => text().includes('Failed to load integrations'))
    expect(text()).toContain('Please try refreshing the page.')
  })

  it('Connect asks for a state and sends the browser to the authorization URL', async () => {
    const fake = fakeIntegrations({ user: [userIntegration()] })
    const assign = vi.fn()
    vi.stubGlobal('location', { ...window.location, assign })
    renderPage()
    await until(() => card('Linear') !== null)
    click(buttonNamed('Connect', card('Linear')))
    await until(() => assign.mock.calls.length > 0)
    expect(assign).toHaveBeenCalledWith('https://auth.test/authorize?service=linear')
    const post = fake.calls.find((call) => call.url === '/api/oauth/state')
    expect(post?.body).toEqual({ integration_name: 'linear' })
  })

  it('Disconnect asks first, then shows Not Connected; a failure alerts', async () => {
    const fake = fakeIntegrations({
      user: [userIntegration({ connected: true }), { ...sheets, connected: true }],
    })
    const alert = vi.fn()
    vi.stubGlobal('alert', alert)
    renderPage()
    await until(() => card('Linear') !== null)
    click(buttonNamed('Disconnect', card('Linear')))
    expect(dialog()?.textContent).toContain('Are you sure you want to revoke access to Linear?')
    click(buttonNamed('Disconnect', dialog()))
    await until(() => card('Linear')?.textContent?.includes('Not Connected') === true)
    expect(fake.calls.at(-1)).toMatchObject({ method: 'DELETE', url: '/api/integrations/linear' })
    expect(dialog()).toBeNull()

    fake.force('DELETE /api/integrations/google-sheets', { status: 502, body: { error: 'x' } })
    click(buttonNamed('Disconnect', card('Google Sheets')))
    click(buttonNamed('Disconnect', dialog()))
    await until(() => alert.mock.calls.length > 0)
    expect(alert).toHaveBeenCalledWith(INTEGRATION_ERROR_MESSAGES.revokeFailed)
    expect(card('Google Sheets')?.textContent).not.toContain('Not Connected')
  })

  it("shows the callback's outcome", async () => {
    fakeIntegrations({ user: [userIntegration({ connected: true })] })
    renderPage({ connected: 'linear' })
    await until(() => text().includes('Linear is connected.'))
    cleanup()
    renderPage({ error: 'Access to linear was not granted' })
    await until(() => text().includes('Access to linear was not granted'))
    expect(document.querySelector('[role="alert"]')?.textContent).toBe(
      'Access to linear was not granted',
    )
  })

  it('Select Files opens the multi-select picker and reports the files for 5 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    fakeIntegrations({ user: [sheets] })
    const built = standInPicker(2)
    renderPage()
    await until(() => card('Google Sheets') !== null)
    click(buttonNamed('Select Files', card('Google Sheets')))
    await until(() => text().includes('Successfully granted access to 2 spreadsheet(s)'))
    expect(built).toEqual({ title: PICKER_TITLE, token: 'token-1', appId: '42', multiselect: true })
    act(() => vi.advanceTimersByTime(PICKER_BANNER_MS))
    expect(text()).not.toContain('Successfully granted access')
  })

  it("alerts when the token or the Picker API can't be had", async () => {
    const fake = fakeIntegrations({ user: [sheets] })
    const alert = vi.fn()
    vi.stubGlobal('alert', alert)
    fake.force('GET /api/integrations/google-sheets/token', { status: 409, body: { error: 'x' } })
    renderPage(undefined, 'http://127.0.0.1:9/missing-picker.js')
    await until(() => card('Google Sheets') !== null)
    click(buttonNamed('Select Files', card('Google Sheets')))
    await until(() => alert.mock.calls.length === 1)
    expect(alert).toHaveBeenLastCalledWith(INTEGRATION_ERROR_MESSAGES.tokenFailed)

    click(buttonNamed('Select Files', card('Google Sheets')))
    await until(() => alert.mock.calls.length === 2)
    expect(alert).toHaveBeenLastCalledWith(PICKER_LOAD_FAILED)
  })
})

import type { MailFailure, MailOverview } from '@sprout/protocol/api/mail.ts'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { buttonNamed, cleanup, click, pageText, until } from '../../testing/render.tsx'
import { renderScreen } from '../../testing/render-screen.tsx'
import { MailPanel } from './mail-panel.tsx'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const failure = (overrides: Partial<MailFailure> = {}): MailFailure => ({
  id: 'mail-1',
  kind: 'password-reset',
  recipient: 'eve@example.com',
  subject: 'Reset your Sprout password',
  status: 'failed',
  attempts: 8,
  lastError: 'Message failed: 550 Mailbox unavailable',
  createdAt: '2026-11-26T10:00:00.000Z',
  lastAttemptAt: '2026-11-26T11:00:00.000Z',
  nextAttemptAt: null,
  ...overrides,
})

/** GET /api/admin/mail answers `overview`; Retry answers `retryAnswer`. */
function fakeMail(overview: MailOverview, retryAnswer: { status: number; body: unknown }) {
  const retried: string[] = []
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const path = new URL(url, 'http://localhost').pathname
    const json = (status: number, value: unknown) =>
      new Response(JSON.stringify(value), {
        status,
        headers: { 'Content-Type': 'application/json' },
      })
    if (path === '/api/admin/mail') return json(200, overview)
    if (init.method === 'POST' && path.endsWith('/retry')) {
      retried.push(path)
      return json(retryAnswer.status, retryAnswer.body)
    }
    return json(404, { error: 'Not found' })
  })
  return { retried }
}

describe('MailPanel', () => {
  it('names the settings to set when mail is not configured', async () => {
    fakeMail(
      { configured: false, from: 'Sprout <s@s.test>', pending: 0, failures: [] },
      {
        status: 200,
        body: {},
      },
    )
    renderScreen(<MailPanel />)
    await until(() => pageText().includes('Mail is not configured'))
    for (const setting of ['SMTP_URL', 'SMTP_USER, SMTP_PASSWORD', 'MAIL_FROM']) {
      expect(pageText()).toContain(setting)
    }
    expect(pageText()).not.toContain('Delivery problems')
  })

  it('shows the sender, the pending count and an empty state', async () => {
    fakeMail(
      { configured: true, from: 'Sprout <s@s.test>', pending: 3, failures: [] },
      {
        status: 200,
        body: {},
      },
    )
    renderScreen(<MailPanel />)
    await until(() => pageText().includes('No delivery problems'))
    expect(pageText()).toContain('Sent from Sprout <s@s.test>')
    expect(document.querySelector('[data-testid="mail-pending"]')?.textContent).toBe('3')
    expect(pageText()).toContain('Every message so far reached the mail server.')
  })

  it('lists failures with their last error, and alerts a refused Retry', async () => {
    const overview: MailOverview = {
      configured: true,
      from: 'Sprout <s@s.test>',
      pending: 1,
      failures: [
        failure(),
        failure({ id: 'mail-2', status: 'pending', attempts: 2, subject: 'Join Acme on Sprout' }),
      ],
    }
    const fake = fakeMail(overview, {
      status: 409,
      body: { error: 'This message was already sent' },
    })
    const alert = vi.fn()
    vi.stubGlobal('alert', alert)
    renderScreen(<MailPanel />)
    await until(() => pageText().includes('Join Acme on Sprout'))
    const headers = [...document.querySelectorAll('th')].map((cell) => cell.textContent)
    expect(headers).toEqual([
      'Recipient',
      'Subject',
      'Status',
      'Attempts',
      'Last error',
      'Last attempt',
      'Actions',
    ])
    const failed = document.querySelector(
      'tr[aria-label="Reset your Sprout password to eve@example.com"]',
    )
    expect(failed?.textContent).toContain('Failed')
    expect(failed?.textContent).toContain('Message failed: 550 Mailbox unavailable')
    const retrying = document.querySelector(
      'tr[aria-label="Join Acme on Sprout to eve@example.com"]',
    )
    expect(retrying?.textContent).toContain('Retrying')
    click(buttonNamed('Retry', failed))
    await until(() => alert.mock.calls.length > 0)
    expect(alert).toHaveBeenCalledWith('Failed to retry: This message was already sent')
    expect(fake.retried).toEqual(['/api/admin/mail/mail-1/retry'])
  })
})

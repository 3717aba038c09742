import { randomUUID } from 'node:crypto'
import { schema } from '@sprout/db/schema.ts'
import type { MailOverview } from '@sprout/protocol/api/mail.ts'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { TestApp, TestUser } from '../testing/app-harness.ts'
import { createTestApp } from '../testing/app-harness.ts'
import { headerLines, type SmtpPeer, startSmtpPeer } from '../testing/smtp-peer.ts'
import { withTestApp } from '../testing/use-app-harness.ts'

// docs/product/mail.md "What the admin sees": the outbox's failures, their last error, Retry.
describe('the admin view of mail', { timeout: 60_000 }, () => {
  const adminEmail = `mail-admin-${Date.now()}@example.com`
  let smtp: SmtpPeer
  let harness: TestApp
  let admin: TestUser
  let member: TestUser
  beforeAll(async () => {
    smtp = await startSmtpPeer()
    harness = await createTestApp({
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Sprout Mail <mail@sprout.test>',
      ADMIN_EMAILS: adminEmail,
    })
    admin = await harness.signUp(adminEmail)
    member = await harness.signUp()
  })
  afterAll(async () => {
    await harness?.close()
    await smtp?.close()
  })

  const overview = async (user = admin) => {
    const response = await harness.request('/api/admin/mail', { user })
    expect(response.status).toBe(200)
    return (await response.json()) as MailOverview
  }
  const retry = (id: string, user = admin) =>
    harness.request(`/api/admin/mail/${encodeURIComponent(id)}/retry`, { method: 'POST', user })
  const insertFailed = async (subject: string) => {
    const id = randomUUID()
    await harness.database.db.insert(schema.mailOutbox).values({
      id,
      kind: 'invitation',
      recipient: 'invitee@example.com',
      subject,
      textBody: `Text of ${subject}`,
      htmlBody: `<p>HTML of ${subject}</p>`,
      status: 'failed',
      attempts: 8,
      lastError: 'Message failed: 550 Mailbox unavailable',
      lastAttemptAt: new Date(),
    })
    return id
  }
  const statusOf = async (id: string) =>
    (
      await harness.database.db
        .select({ status: schema.mailOutbox.status })
        .from(schema.mailOutbox)
        .where(eq(schema.mailOutbox.id, id))
    )[0]?.status

  it('shows a refused reset mail with its last error, and Retry sends it once accepted', async () => {
    smtp.refuse('Mailbox unavailable')
    const asked = await harness.request('/api/auth/request-password-reset', {
      method: 'POST',
      body: JSON.stringify({ email: member.email }),
    })
    expect(asked.status).toBe(200)
    await vi.waitFor(async () => expect((await overview()).failures).toHaveLength(1), {
      timeout: 10_000,
    })
    const seen = await overview()
    expect(seen).toMatchObject({
      configured: true,
      from: 'Sprout Mail <mail@sprout.test>',
      pending: 1,
    })
    const [failure] = seen.failures
    expect(failure).toMatchObject({
      kind: 'password-reset',
      recipient: member.email,
      subject: 'Reset your Sprout password',
      status: 'pending',
      attempts: 1,
    })
    expect(failure?.lastError).toContain('Mailbox unavailable')
    expect(failure?.lastAttemptAt).not.toBeNull()
    expect(failure?.nextAttemptAt).not.toBeNull()

    smtp.accept()
    const retried = await retry(failure?.id ?? '')
    expect(retried.status).toBe(200)
    expect(await retried.json()).toEqual({ id: failure?.id, status: 'pending' })
    const [received] = await smtp.waitForMessages(1)
    expect(received?.to).toEqual([member.email])
    expect(headerLines(received?.raw ?? '')).toContain('Subject: Reset your Sprout password')
    await vi.waitFor(async () =>
      expect(await overview()).toMatchObject({ pending: 0, failures: [] }),
    )
  })

  it('lists a message whose retries ran out as failed, and Retry sends it again', async () => {
    const id = await insertFailed('Join Acme on Sprout')
    const [failure] = (await overview()).failures
    expect(failure).toMatchObject({ id, status: 'failed', attempts: 8, nextAttemptAt: null })
    expect(failure?.lastError).toBe('Message failed: 550 Mailbox unavailable')
    const before = smtp.received.length
    expect((await retry(id)).status).toBe(200)
    await smtp.waitForMessages(before + 1)
    await vi.waitFor(async () => expect(await statusOf(id)).toBe('sent'))
    // Sent already: a second Retry (a replay) changes nothing.
    const again = await retry(id)
    expect(again.status).toBe(409)
    expect(await again.json()).toEqual({ error: 'This message was already sent' })
    expect(smtp.received.length).toBe(before + 1)
  })

  it('refuses everybody but platform admins, and changes nothing for them', async () => {
    const id = await insertFailed('Not for members')
    expect((await harness.request('/api/admin/mail', { user: member })).status).toBe(403)
    expect((await retry(id, member)).status).toBe(403)
    expect((await harness.request('/api/admin/mail')).status).toBe(401)
    expect((await harness.request(`/api/admin/mail/${id}/retry`, { method: 'POST' })).status).toBe(
      401,
    )
    expect(await statusOf(id)).toBe('failed')
    // Cookie writes from another origin are refused before anything runs.
    const forged = await harness.request(`/api/admin/mail/${id}/retry`, {
      method: 'POST',
      user: admin,
      as: 'cookie',
      headers: { origin: 'https://evil.example' },
    })
    expect(forged.status).toBe(403)
    expect(await statusOf(id)).toBe('failed')
  })

  it('answers a clear 4xx for ids that name no message: unknown, huge, NUL, lone surrogate', async () => {
    const id = await insertFailed('Left alone')
    const segments = [
      randomUUID(),
      'x'.repeat(5000),
      encodeURIComponent("' or 1=1 --"),
      '%00',
      '%ED%A0%80',
      '%2e%2e%2fstatus',
    ]
    for (const segment of segments) {
      const response = await harness.request(`/api/admin/mail/${segment}/retry`, {
        method: 'POST',
        user: admin,
      })
      expect([400, 404]).toContain(response.status)
      expect(await response.json()).toHaveProperty('error')
    }
    expect(await statusOf(id)).toBe('failed')
  })

  it('says mail is not configured without SMTP_URL, and Retry needs it', async () => {
    await withTestApp({ ADMIN_EMAILS: 'plain-admin@example.com' }, async (plain) => {
      const plainAdmin = await plain.signUp('plain-admin@example.com')
      const response = await plain.request('/api/admin/mail', { user: plainAdmin })
      expect(await response.json()).toEqual({
        configured: false,
        from: `Sprout <sprout@localhost>`,
        pending: 0,
        failures: [],
      })
      const id = randomUUID()
      await plain.database.db.insert(schema.mailOutbox).values({
        id,
        kind: 'invitation',
        recipient: 'invitee@example.com',
        subject: 'Left from when SMTP was set',
        textBody: 'Text',
        htmlBody: '<p>HTML</p>',
        status: 'failed',
        lastError: 'Greeting never received',
      })
      const retried = await plain.request(`/api/admin/mail/${id}/retry`, {
        method: 'POST',
        user: plainAdmin,
      })
      expect(retried.status).toBe(409)
      expect(await retried.json()).toEqual({
        error: 'Mail is not configured: set SMTP_URL to send it',
      })
    })
  })
})

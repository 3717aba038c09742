// An app's own mail and who calls it, from the real full-stack starter in a real box
// (docs/product/mail.md "An app's own mail", docs/product/deploys.md "Who may open a deploy").
import { randomUUID } from 'node:crypto'
import { schema } from '@sprout/db/schema.ts'
import { APP_MAIL_PER_HOUR } from '@sprout/protocol/api/app-mail.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PREVIEW_COOKIE } from '../devboxes/hand-off/preview-session.ts'
import { createMailer } from '../mail/mailer.ts'
import { loadVaultKeyring } from '../sealing/master-keys.ts'
import {
  createTestApp,
  handOffPath,
  type TestApp,
  type TestUser,
  waitForEditorReady,
} from '../testing/app-harness.ts'
import { cookieFrom, rawRequest, sendRaw } from '../testing/raw-request.ts'
import { headerLines, type SmtpPeer, startSmtpPeer } from '../testing/smtp-peer.ts'
import { answerMailRequest, createAppMailRelay } from './app-mail.ts'
import { createAppTokens } from './app-tokens.ts'

/** The starter's routes as the agent would write them: who calls, and mail through Sprout. */
const routes = `import { Hono } from 'hono'
import { currentUser } from './current-user.ts'

export const app = new Hono().basePath('/api')
app.get('/health', (c) => c.json({ ok: true }))
app.get('/me', async (c) => c.json({ user: await currentUser(c) }))
app.post('/send', async (c) => {
  const answer = await fetch(process.env.SPROUT_INTERNAL_URL + '/mail', {
    method: 'POST',
    headers: {
      authorization: c.req.header('x-no-token') ? '' : 'Bearer ' + process.env.SPROUT_APP_TOKEN,
      'content-type': 'application/json',
    },
    body: await c.req.text(),
  })
  return c.json({ status: answer.status, body: await answer.json() })
})
export default app
`

describe("an app's own mail and its caller, in a real box", { timeout: 300_000 }, () => {
  let smtp: SmtpPeer
  let harness: TestApp
  let owner: TestUser
  let organizationId: string
  let applicationId: string
  let previewHost: string
  let cookie: string

  const send = async (body: unknown, headers: Record<string, string> = {}) => {
    const answer = await sendRaw(harness.port, previewHost, '/api/send', {
      method: 'POST',
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { cookie, 'content-type': 'application/json', ...headers },
    })
    return JSON.parse(answer.body) as { status: number; body: Record<string, unknown> }
  }

  beforeAll(async () => {
    smtp = await startSmtpPeer()
    harness = await createTestApp({
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Sprout Mail <mail@sprout.test>',
    })
    await harness.listen()
    owner = await harness.signUpAdmin()
    organizationId = await harness.createOrganization(owner, 'Mailers')
    const created = await harness.request('/api/applications', {
      method: 'POST',
      user: owner,
      headers: { 'organization-id': organizationId },
      body: JSON.stringify({ name: 'Guest book', initial_prompt: 'A guest book', model: 'demo' }),
    })
    applicationId = ((await created.json()) as { id: string }).id
    await waitForEditorReady(harness, owner, organizationId, applicationId)
    await harness.devboxes.box(applicationId)?.files.write('server/app.ts', routes)
    const details = await harness.request(`/api/applications/${applicationId}`, {
      user: owner,
      headers: { 'organization-id': organizationId },
    })
    const previewUrl = ((await details.json()) as { preview_url: string }).preview_url
    previewHost = new URL(previewUrl).host
    const issued = await harness.request('/api/org/devbox-token', {
      method: 'POST',
      user: owner,
      body: JSON.stringify({ devbox_url: previewUrl }),
    })
    const { token } = (await issued.json()) as { token: string }
    cookie =
      cookieFrom(await rawRequest(harness.port, previewHost, handOffPath(token)), PREVIEW_COOKIE) ??
      ''
  })
  afterAll(async () => {
    await harness?.close()
    await smtp?.close()
  })

  it('tells the preview’s server who calls, through the starter’s currentUser(c)', async () => {
    await expect
      .poll(
        async () => {
          const answer = await rawRequest(harness.port, previewHost, '/api/me', { cookie })
          return answer.status === 200 ? JSON.parse(answer.body).user : answer.status
        },
        { timeout: 60_000 },
      )
      .toEqual({
        id: owner.id,
        name: expect.any(String),
        email: owner.email,
        organization: organizationId,
        role: 'owner',
      })
    const forged = await rawRequest(harness.port, previewHost, '/api/me', {
      cookie,
      'x-sprout-identity': 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
    })
    expect(JSON.parse(forged.body).user).toMatchObject({ id: owner.id })
  })

  it('relays a message through the outbox, from MAIL_FROM’s address under the app’s name', async () => {
    const answer = await send({
      to: 'guest@example.com',
      subject: 'Confirm your address',
      text: 'Open this link:\nhttp://guest-book.preview.localhost/verify?token=abc',
    })
    expect(answer).toEqual({ status: 202, body: { queued: true } })
    const [mail] = await smtp.waitForMessages(1)
    expect(mail?.to).toEqual(['guest@example.com'])
    expect(mail?.from).toBe('mail@sprout.test')
    const headers = headerLines(mail?.raw ?? '')
    expect(headers).toContain('From: Guest book <mail@sprout.test>')
    expect(headers).toContain('Subject: Confirm your address')
    expect(mail?.raw).toContain('http://guest-book.preview.localhost/verify?token=abc')
  })

  it('refuses what is not one message to one address, without a token, or past the hour’s limit', async () => {
    for (const to of [
      'a@example.com, b@example.com',
      'a@example.com\r\nBcc: b@example.com',
      '',
      'x',
    ]) {
      const answer = await send({ to, subject: 'Hi', text: 'Hello' })
      expect(answer.status, JSON.stringify(to)).toBe(400)
    }
    expect((await send({ to: 'a@example.com', subject: '', text: 'x' })).status).toBe(400)
    expect(
      (await send({ to: 'a@example.com', subject: 'x', text: 'x', cc: 'b@x.io' })).status,
    ).toBe(400)
    expect((await send('not json')).status).toBe(400)
    expect(
      (await send({ to: 'a@example.com', subject: 'x', text: 'x'.repeat(70_000) })).status,
    ).toBe(413)
    const anonymous = await send(
      { to: 'a@example.com', subject: 'x', text: 'x' },
      { 'x-no-token': '1' },
    )
    expect(anonymous.status).toBe(401)
    // A subject's line breaks never make a header of their own.
    await send({ to: 'crlf@example.com', subject: 'Hi\r\nBcc: evil@example.com', text: 'x' })
    const all = await smtp.waitForMessages(2)
    expect(all.flatMap((mail) => mail.to)).not.toContain('evil@example.com')
    expect(headerLines(all[1]?.raw ?? '')).toContain('Subject: Hi Bcc: evil@example.com')

    await harness.database.db.insert(schema.mailOutbox).values(
      Array.from({ length: APP_MAIL_PER_HOUR }, (_, index) => ({
        id: randomUUID(),
        kind: 'app-mail',
        applicationId,
        recipient: `many${index}@example.com`,
        subject: 'x',
        textBody: 'x',
        htmlBody: 'x',
        status: 'sent',
      })),
    )
    const limited = await send({ to: 'one-more@example.com', subject: 'x', text: 'x' })
    expect(limited.status).toBe(429)
    expect(limited.body.error).toBe(
      `This app has sent ${APP_MAIL_PER_HOUR} messages in the last hour, its limit: try again later.`,
    )
  })

  it('says mail is off where the installation has no SMTP_URL, and sends nothing', async () => {
    const db = harness.database.db
    const appTokens = createAppTokens(db, await loadVaultKeyring(harness.config, db))
    const mailer = createMailer({
      database: harness.database,
      config: { mail: { ...harness.config.mail, smtpUrl: undefined } },
    })
    const answer = await answerMailRequest({
      authorization: `Bearer ${await appTokens.tokenFor(applicationId)}`,
      body: JSON.stringify({ to: 'a@example.com', subject: 'x', text: 'x' }),
      appTokens,
      relay: createAppMailRelay({ db, mailer }),
    })
    expect(answer).toEqual({
      status: 503,
      body: {
        error: 'Mail is off on this Sprout installation (no SMTP_URL): the message was not sent.',
        mail: 'off',
      },
    })
  })
})

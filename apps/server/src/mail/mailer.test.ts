import type { DatabaseHandle } from '@sprout/db/database.ts'
import { schema } from '@sprout/db/schema.ts'
import { findFreePort } from '@sprout/devbox/drivers/local/processes/free-port.ts'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestDatabase } from '../testing/database.ts'
import { headerLines, startSilentServer, startSmtpPeer } from '../testing/smtp-peer.ts'
import { retryDelayMs } from './mail-worker.ts'
import { createMailer, type Mailer, type OutgoingMail } from './mailer.ts'
import { claimDueMail } from './outbox.ts'

const fastRetry = { baseMs: 200, maxMs: 1000, maxAttempts: 8 }
const fastTimeouts = { connectionMs: 500, greetingMs: 500, socketMs: 1000, sendMs: 3000 }
const fastTiming = { pollMs: 200, leaseMs: 2000, stopGraceMs: 500 }
const from = 'Sprout <sprout@sprout.test>'

let database: DatabaseHandle
const stops: (() => Promise<void>)[] = []
beforeAll(async () => {
  database = await createTestDatabase()
})
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop()
  await database.db.delete(schema.mailOutbox)
})
afterAll(() => database.close())

function mailerFor(
  smtpUrl: string | undefined,
  options: { user?: string; password?: string; maxAttempts?: number } = {},
): Mailer {
  const mailer = createMailer({
    database,
    config: { mail: { smtpUrl, user: options.user, password: options.password, from } },
    retry: { ...fastRetry, maxAttempts: options.maxAttempts ?? fastRetry.maxAttempts },
    timeouts: fastTimeouts,
    timing: fastTiming,
  })
  stops.push(() => mailer.stop())
  return mailer
}

async function peer(options: Parameters<typeof startSmtpPeer>[0] = {}) {
  const started = await startSmtpPeer(options)
  stops.push(started.close)
  return started
}

const message = (subject = 'Hello', to = 'eve@example.com'): OutgoingMail => ({
  kind: 'password-reset',
  to,
  subject,
  text: `Plain words for ${subject}`,
  html: `<p>HTML words for ${subject}</p>`,
})

const rows = () => database.db.select().from(schema.mailOutbox)
const onlyRow = async () => {
  const [row, ...others] = await rows()
  expect(others).toEqual([])
  if (!row) throw new Error('the outbox is empty')
  return row
}

describe('the mail outbox and its worker', { timeout: 30_000 }, () => {
  it('delivers a message with its plain-text and HTML bodies, then forgets the bodies', async () => {
    const server = await peer()
    const mailer = mailerFor(server.url)
    mailer.start()
    await mailer.enqueue(message('Welcome'))
    const [received] = await server.waitForMessages(1)
    expect(received?.to).toEqual(['eve@example.com'])
    expect(received?.from).toBe('sprout@sprout.test')
    const headers = headerLines(received?.raw ?? '')
    expect(headers).toContain('Subject: Welcome')
    expect(headers).toContain('To: eve@example.com')
    expect(headers).toContain('From: Sprout <sprout@sprout.test>')
    expect(received?.raw).toContain('Content-Type: text/plain')
    expect(received?.raw).toContain('Plain words for Welcome')
    expect(received?.raw).toContain('Content-Type: text/html')
    expect(received?.raw).toContain('<p>HTML words for Welcome</p>')
    await vi.waitFor(async () => expect((await onlyRow()).status).toBe('sent'))
    const row = await onlyRow()
    expect(row).toMatchObject({ textBody: '', htmlBody: '', lastError: null, attempts: 0 })
    expect(row.sentAt).toBeInstanceOf(Date)
  })

  it('logs in with the user and password of SMTP_URL, percent-encoded', async () => {
    const server = await peer({ login: { user: 'mailer@sprout.test', password: 'p@ss:word/1' } })
    const url = new URL(server.url)
    url.username = encodeURIComponent('mailer@sprout.test')
    url.password = encodeURIComponent('p@ss:word/1')
    const mailer = mailerFor(url.toString())
    mailer.start()
    await mailer.enqueue(message())
    const [received] = await server.waitForMessages(1)
    expect(received?.user).toBe('mailer@sprout.test')
  })

  it('logs in with SMTP_USER and SMTP_PASSWORD, which win over the URL', async () => {
    const server = await peer({ login: { user: 'mailer', password: 'right' } })
    const url = new URL(server.url)
    url.username = 'someone-else'
    url.password = 'wrong'
    const mailer = mailerFor(url.toString(), { user: 'mailer', password: 'right' })
    mailer.start()
    await mailer.enqueue(message())
    const [received] = await server.waitForMessages(1)
    expect(received?.user).toBe('mailer')
  })

  it('speaks smtps:// and passes the URL query (tls.rejectUnauthorized) to the connection', async () => {
    const server = await peer({ secure: true })
    const mailer = mailerFor(`${server.url}?tls.rejectUnauthorized=false`)
    mailer.start()
    await mailer.enqueue(message('Over TLS'))
    const [received] = await server.waitForMessages(1)
    expect(headerLines(received?.raw ?? '')).toContain('Subject: Over TLS')
  })

  it('keeps a refused message, retries it with a growing wait and sends it once accepted', async () => {
    const server = await peer()
    server.refuse('Mailbox unavailable')
    const mailer = mailerFor(server.url)
    mailer.start()
    await mailer.enqueue(message('Refused at first'))
    await vi.waitFor(async () => expect((await onlyRow()).attempts).toBe(1))
    const first = await onlyRow()
    expect(first.status).toBe('pending')
    expect(first.lastError).toContain('550')
    expect(first.lastError).toContain('Mailbox unavailable')
    const firstWait = first.nextAttemptAt.getTime() - (first.lastAttemptAt?.getTime() ?? 0)
    expect(firstWait).toBeGreaterThanOrEqual(fastRetry.baseMs)
    await vi.waitFor(async () => expect((await onlyRow()).attempts).toBe(2), { timeout: 5000 })
    const second = await onlyRow()
    const secondWait = second.nextAttemptAt.getTime() - (second.lastAttemptAt?.getTime() ?? 0)
    expect(secondWait).toBeGreaterThanOrEqual(2 * fastRetry.baseMs)
    expect(server.received).toEqual([])
    server.accept()
    const [received] = await server.waitForMessages(1)
    expect(headerLines(received?.raw ?? '')).toContain('Subject: Refused at first')
    await vi.waitFor(async () => expect((await onlyRow()).status).toBe('sent'), { timeout: 5000 })
    expect((await onlyRow()).lastError).toBeNull()
  })

  it('gives up after the last attempt: the message is failed with its last error', async () => {
    const server = await peer()
    server.refuse('No such user here')
    const mailer = mailerFor(server.url, { maxAttempts: 2 })
    mailer.start()
    await mailer.enqueue(message())
    await vi.waitFor(async () => expect((await onlyRow()).status).toBe('failed'), { timeout: 5000 })
    expect(await onlyRow()).toMatchObject({ attempts: 2, textBody: 'Plain words for Hello' })
    expect((await onlyRow()).lastError).toContain('No such user here')
  })

  it('records a timeout when the server accepts the connection and never answers', async () => {
    const silent = await startSilentServer()
    stops.push(silent.close)
    const mailer = mailerFor(silent.url)
    mailer.start()
    await mailer.enqueue(message('Into the void'))
    await vi.waitFor(async () => expect((await onlyRow()).attempts).toBeGreaterThanOrEqual(1), {
      timeout: 5000,
    })
    const row = await onlyRow()
    expect(row.status).toBe('pending')
    expect(row.lastError?.toLowerCase()).toMatch(/greeting|timeout|timed out/)
    expect(row.subject).toBe('Into the void')
    expect(silent.connections()).toBeGreaterThanOrEqual(1)
  })

  it('keeps the message while nothing listens, and sends it once the server is up', async () => {
    const port = await findFreePort()
    const mailer = mailerFor(`smtp://127.0.0.1:${port}`)
    mailer.start()
    await mailer.enqueue(message('While down'))
    await vi.waitFor(async () => expect((await onlyRow()).attempts).toBeGreaterThanOrEqual(1), {
      timeout: 5000,
    })
    expect((await onlyRow()).lastError).toContain('ECONNREFUSED')
    const server = await peer({ port })
    const [received] = await server.waitForMessages(1)
    expect(headerLines(received?.raw ?? '')).toContain('Subject: While down')
  })

  it('sends at start what was pending before, and what a stopped process had claimed', async () => {
    const server = await peer()
    const before = mailerFor(server.url)
    await before.enqueue(message('Written before the restart'))
    await before.enqueue(message('Claimed by a process that died'))
    // The second one is held by a lease, as a process that died mid-send leaves it.
    await claimDueMail(database.db, 1000)
    await before.stop()
    expect(server.received).toEqual([])
    const after = mailerFor(server.url)
    after.start()
    const received = await server.waitForMessages(2)
    const subjects = received.map((mail) =>
      headerLines(mail.raw).find((line) => line.startsWith('Subject:')),
    )
    expect(subjects.sort()).toEqual([
      'Subject: Claimed by a process that died',
      'Subject: Written before the restart',
    ])
  })

  it('never sends a message twice with two workers on one database', async () => {
    const server = await peer()
    const first = mailerFor(server.url)
    const second = mailerFor(server.url)
    const subjects = Array.from({ length: 20 }, (_, index) => `Message ${index}`)
    for (const subject of subjects) await first.enqueue(message(subject))
    first.start()
    second.start()
    await server.waitForMessages(20)
    await vi.waitFor(async () =>
      expect((await rows()).every((row) => row.status === 'sent')).toBe(true),
    )
    const received = server.received.map((mail) =>
      headerLines(mail.raw).find((line) => line.startsWith('Subject:')),
    )
    expect(received.sort()).toEqual(subjects.map((subject) => `Subject: ${subject}`).sort())
  })

  it('stops within its grace while a send hangs; the message stays pending, uncounted', async () => {
    const silent = await startSilentServer()
    stops.push(silent.close)
    const mailer = createMailer({
      database,
      config: { mail: { smtpUrl: silent.url, user: undefined, password: undefined, from } },
      timeouts: { connectionMs: 30_000, greetingMs: 30_000, socketMs: 30_000, sendMs: 30_000 },
      timing: { stopGraceMs: 300 },
    })
    mailer.start()
    await mailer.enqueue(message('Cut short'))
    await vi.waitFor(() => expect(silent.connections()).toBe(1))
    const stopping = Date.now()
    await mailer.stop()
    expect(Date.now() - stopping).toBeLessThan(5000)
    const row = await onlyRow()
    expect(row).toMatchObject({ status: 'pending', attempts: 0, lastError: null })
    expect(row.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000)
  })

  it('fails at once, without sending, a recipient that is not one address', async () => {
    const server = await peer()
    const mailer = mailerFor(server.url)
    mailer.start()
    await mailer.enqueue(message('Two at once', 'eve@example.com, mallory@evil.test'))
    await vi.waitFor(async () => expect((await onlyRow()).status).toBe('failed'))
    expect(await onlyRow()).toMatchObject({
      attempts: 1,
      lastError: 'The recipient is not one email address',
    })
    expect(server.received).toEqual([])
  })

  it('writes nothing without SMTP_URL, and its start and stop do nothing', async () => {
    const mailer = mailerFor(undefined)
    expect(mailer.configured).toBe(false)
    mailer.start()
    await mailer.enqueue(message())
    expect(await rows()).toEqual([])
  })

  it('waits 30 s, then twice as long each time, at most an hour, for 8 attempts', () => {
    const retry = { baseMs: 30_000, maxMs: 3_600_000, maxAttempts: 8 }
    const waits = [1, 2, 3, 4, 5, 6, 7, 8].map((failures) => retryDelayMs(retry, failures))
    expect(waits).toEqual([
      30_000,
      60_000,
      120_000,
      240_000,
      480_000,
      960_000,
      1_920_000,
      undefined,
    ])
    expect(retryDelayMs({ ...retry, maxAttempts: 20 }, 12)).toBe(3_600_000)
  })
})

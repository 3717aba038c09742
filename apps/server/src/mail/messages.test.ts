import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { DatabaseHandle } from '@sprout/db/database.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase } from '../testing/database.ts'
import { headerLines, type SmtpPeer, startSmtpPeer } from '../testing/smtp-peer.ts'
import { createMailer, type Mailer, type OutgoingMail } from './mailer.ts'
import { emailChangeMail, invitationMail, passwordResetMail, verificationMail } from './messages.ts'

const productPage = readFileSync(
  path.resolve(import.meta.dirname, '../../../../docs/product/mail.md'),
  'utf8',
)

/** Each message with its placeholders as docs/product/mail.md writes them. */
const documented: OutgoingMail[] = [
  passwordResetMail({ to: '{email}', name: '{name}', url: '{link}' }),
  verificationMail({ to: '{email}', name: '{name}', url: '{link}' }),
  invitationMail({
    to: '{email}',
    inviterName: '{inviter}',
    organizationName: '{organization}',
    url: '{link}',
  }),
  emailChangeMail({ to: '{email}', name: '{name}', newEmail: '{new email}', url: '{link}' }),
]

const linkLabel = (html: string) => /<a [^>]*>([^<]*)<\/a>/.exec(html)?.[1] ?? ''

describe('the messages, word for word as docs/product/mail.md has them', () => {
  it.each(documented.map((mail) => [mail.kind, mail] as const))('%s', (_kind, mail) => {
    expect(productPage).toContain(`'${mail.subject}'`)
    expect(productPage).toContain(`'${linkLabel(mail.html)}'`)
    const textBlock = `\`\`\`text\n${mail.text}\`\`\``
    expect(productPage).toContain(textBlock)
  })

  it('greets without a name when there is none', () => {
    const mail = passwordResetMail({ to: 'eve@example.com', name: '  ', url: 'https://s.test/r' })
    expect(mail.text.startsWith('Hello,\n\n')).toBe(true)
  })

  it('shows names and links in the HTML as text, never as markup', () => {
    const mail = invitationMail({
      to: 'eve@example.com',
      inviterName: '<script>alert(1)</script>',
      organizationName: 'Tom & "Jerry"',
      url: 'https://sprout.test/invitations/1"><img src=x onerror=alert(1)>',
    })
    expect(mail.html).not.toContain('<script>')
    expect(mail.html).not.toContain('<img')
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(mail.html).toContain('Tom &amp; &quot;Jerry&quot;')
    expect(mail.html).toContain('href="https://sprout.test/invitations/1&quot;&gt;&lt;img')
  })
})

describe('header injection through names and subjects', { timeout: 30_000 }, () => {
  let database: DatabaseHandle
  let smtp: SmtpPeer
  let mailer: Mailer
  beforeAll(async () => {
    database = await createTestDatabase()
    smtp = await startSmtpPeer()
    mailer = createMailer({
      database,
      config: {
        mail: {
          smtpUrl: smtp.url,
          user: undefined,
          password: undefined,
          from: 'Sprout <s@s.test>',
        },
      },
      timing: { pollMs: 200 },
    })
    mailer.start()
  })
  afterAll(async () => {
    await mailer.stop()
    await smtp.close()
    await database.close()
  })

  const injectedHeaders = (raw: string) =>
    headerLines(raw).filter((line) => /^(bcc|cc|x-injected|to):/i.test(line))

  it('a user named "Eve\\r\\nBcc: x@evil" adds no header and no recipient', async () => {
    const evil = 'Eve\r\nBcc: x@evil.test'
    await mailer.enqueue(
      invitationMail({
        to: 'invitee@example.com',
        inviterName: evil,
        organizationName: 'Acme\r\nX-Injected: yes',
        url: 'https://sprout.test/invitations/1',
      }),
    )
    await mailer.enqueue(
      passwordResetMail({ to: 'eve@example.com', name: evil, url: 'https://s.test/r' }),
    )
    await mailer.enqueue({
      kind: 'email-change',
      to: 'eve@example.com',
      subject: 'Straight in\r\nBcc: x@evil.test\nX-Injected: yes',
      text: 'Body',
      html: '<p>Body</p>',
    })
    const received = await smtp.waitForMessages(3)
    for (const mail of received) {
      expect(mail.to).toHaveLength(1)
      expect(mail.to[0]).not.toContain('evil')
      expect(injectedHeaders(mail.raw)).toEqual([`To: ${mail.to[0]}`])
    }
    const subjects = received.flatMap((mail) =>
      headerLines(mail.raw).filter((line) => line.startsWith('Subject:')),
    )
    expect(subjects.sort()).toEqual([
      'Subject: Eve Bcc: x@evil.test invited you to join Acme X-Injected: yes on Sprout',
      'Subject: Reset your Sprout password',
      'Subject: Straight in Bcc: x@evil.test X-Injected: yes',
    ])
  })

  it('a recipient with a line break or a second address is never sent', async () => {
    const before = smtp.received.length
    for (const to of ['victim@example.com\r\nBcc: x@evil.test', 'a@example.com, x@evil.test']) {
      await mailer.enqueue(passwordResetMail({ to, name: 'Eve', url: 'https://s.test/r' }))
    }
    await mailer.enqueue(
      passwordResetMail({ to: 'after@example.com', name: 'Eve', url: 'https://s.test/r' }),
    )
    const received = await smtp.waitForMessages(before + 1)
    expect(received.slice(before).map((mail) => mail.to)).toEqual([['after@example.com']])
  })
})

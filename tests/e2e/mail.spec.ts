import { expect, test } from '@playwright/test'
import { type SmtpPeer, startSmtpPeer } from '@sprout/server/testing/smtp-peer.ts'
import { MailTab } from './pages/mail-tab.ts'
import { SignInPage } from './pages/sign-in-page.ts'
import { expectPath } from './support/location.ts'
import { ownServer, withoutBoxes } from './support/own-server.ts'
import { adminUser } from './support/users.ts'

// docs/product/mail.md "What the admin sees".

test('without SMTP_URL the Mail tab says mail is not configured and what to set', async ({
  page,
}) => {
  await page.goto('/admin/mail')
  await new SignInPage(page).signIn(adminUser)
  await expectPath(page, '/admin/mail')
  const mail = new MailTab(page)
  await expect(mail.tab).toBeVisible()
  await expect(mail.heading).toBeVisible()
  await expect(mail.notConfigured).toBeVisible()
  await expect(page.getByText('To send mail, set these and restart Sprout:')).toBeVisible()
  for (const setting of ['SMTP_URL', 'SMTP_USER, SMTP_PASSWORD', 'MAIL_FROM']) {
    await expect(page.getByRole('term').filter({ hasText: setting })).toBeVisible()
  }
})

test.describe('with a mail server that refuses, then accepts', () => {
  // A Sprout of its own, sending to a real SMTP server on loopback.
  const port = (Number(process.env.E2E_PORT) || 3100) + 400
  let smtp: SmtpPeer
  let server: ReturnType<typeof ownServer>
  test.describe.configure({ mode: 'serial' })
  test.beforeAll(async () => {
    test.setTimeout(120_000)
    smtp = await startSmtpPeer()
    smtp.refuse('Mailbox unavailable')
    server = ownServer(port, {
      ...withoutBoxes,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Sprout Mail <mail@sprout.test>',
    })
    await server.start()
    const signedUp = await fetch(`${server.baseURL}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: server.baseURL },
      body: JSON.stringify(adminUser),
    })
    expect(signedUp.status).toBe(200)
  })
  test.afterAll(async () => {
    await server?.stop()
    await smtp?.close()
  })
  test.afterEach(async ({ page: _page }, testInfo) => {
    if (testInfo.status !== testInfo.expectedStatus) console.log(server.output())
  })

  test('shows the refused message with its last error, and Retry delivers it', async ({
    browser,
  }) => {
    const asked = await fetch(`${server.baseURL}/api/auth/request-password-reset`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: server.baseURL },
      body: JSON.stringify({ email: adminUser.email }),
    })
    expect(asked.status).toBe(200)

    const context = await browser.newContext({ baseURL: server.baseURL })
    const page = await context.newPage()
    await page.goto('/admin/mail')
    await new SignInPage(page).signIn(adminUser)
    await expectPath(page, '/admin/mail')
    const mail = new MailTab(page)
    await expect(page.getByText('Sent from Sprout Mail <mail@sprout.test>')).toBeVisible()
    const failure = mail.failure('Reset your Sprout password', adminUser.email)
    // The worker's first attempt fails within moments; the tab refreshes every 10 seconds.
    await expect(failure).toBeVisible({ timeout: 20_000 })
    await expect(failure).toContainText('Retrying')
    await expect(failure).toContainText('Mailbox unavailable')
    await expect(mail.pending).toHaveText('1')

    smtp.accept()
    await failure.getByRole('button', { name: 'Retry' }).click()
    await smtp.waitForMessages(1)
    expect(smtp.received[0]?.to).toEqual([adminUser.email])
    await expect(mail.noProblems).toBeVisible({ timeout: 20_000 })
    await expect(mail.pending).toHaveText('0')
    await context.close()
  })
})

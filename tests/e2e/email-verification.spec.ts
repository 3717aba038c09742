import { expect, test } from '@playwright/test'
import { type SmtpPeer, startSmtpPeer } from '@sprout/server/testing/smtp-peer.ts'
import { authTexts } from '@sprout/web/features/auth/auth-texts.ts'
import { AdminPage } from './pages/admin-page.ts'
import { HomePage } from './pages/home-page.ts'
import { Navbar } from './pages/navbar.ts'
import { SignUpPage } from './pages/sign-up-page.ts'
import { expectPath } from './support/location.ts'
import { confirmationLinkFor } from './support/mail-links.ts'
import { ownServer, withoutBoxes } from './support/own-server.ts'
import { newUser } from './support/users.ts'

// docs/product/auth.md "Email verification", "The first admin" and "Sign-up rules" on a fresh
// install of its own that requires confirmed addresses, mailing through a real SMTP server.
const port = (Number(process.env.E2E_PORT) || 3100) + 500
let smtp: SmtpPeer
let server: ReturnType<typeof ownServer>

test.describe.configure({ mode: 'serial' })
test.beforeAll(async () => {
  test.setTimeout(120_000)
  smtp = await startSmtpPeer()
  server = ownServer(port, {
    ...withoutBoxes,
    ADMIN_EMAILS: '',
    SMTP_URL: smtp.url,
    REQUIRE_EMAIL_VERIFICATION: 'true',
    SIGNUP_DOMAINS: 'sprout.test',
  })
  await server.start()
})
test.afterAll(async () => {
  await server?.stop()
  await smtp?.close()
})
test.afterEach(async ({ page: _page }, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) console.log(server.output())
})

test('the setup link makes its holder the admin even before the address is confirmed', async ({
  browser,
}) => {
  test.setTimeout(60_000)
  const [, setupUrl = ''] = await server.waitForOutput(
    /No admin yet\. Open (\S+\/setup\?code=\S+) to create the admin account\./,
  )
  const context = await browser.newContext({ baseURL: server.baseURL })
  const page = await context.newPage()
  const owner = newUser('Owner')
  await page.goto(setupUrl)
  await new SignUpPage(page).signUp(owner)
  await expect(page.getByText(authTexts.verificationSent(owner.email))).toBeVisible()

  // The mailed link signs the owner in on the admin screen, an admin.
  await page.goto(await confirmationLinkFor(smtp, owner.email))
  await expectPath(page, '/admin')
  await expect(new AdminPage(page).tabs).toBeVisible()

  // The link is spent: nobody is offered 'Make … the admin' any more.
  await page.goto(setupUrl)
  await expect(page.getByText(authTexts.setupAdminExists)).toBeVisible()
  await context.close()
})

test('a confirmed sign-up opens home in Personal, and another domain is refused', async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: server.baseURL })
  const page = await context.newPage()
  const signUpPage = new SignUpPage(page)
  const rule = 'Sign-up is open to addresses at sprout.test only.'

  await signUpPage.goto()
  await signUpPage.signUp({ ...newUser('Outsider'), email: `outsider-${Date.now()}@gmail.com` })
  await expect(page.getByRole('alert').filter({ hasText: rule })).toBeVisible()

  const user = newUser('Confirmer')
  await signUpPage.signUp(user)
  await expect(page.getByText(authTexts.verificationSent(user.email))).toBeVisible()
  await page.goto(await confirmationLinkFor(smtp, user.email))
  await expect(new HomePage(page).heading).toBeVisible()
  await expectPath(page, '/')
  await expect(new Navbar(page).currentOrganization).toHaveText('Personal')
  await context.close()
})

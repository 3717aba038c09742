import { expect, type Page, test } from '@playwright/test'
import { type SmtpPeer, startSmtpPeer } from '@sprout/server/testing/smtp-peer.ts'
import { BuilderPage } from './pages/builder-page.ts'
import { ChatPanel } from './pages/chat-panel.ts'
import { HomePage } from './pages/home-page.ts'
import { SignUpPage } from './pages/sign-up-page.ts'
import { DEVBOX_READY_TIMEOUT } from './support/applications.ts'
import { confirmationLinkFor } from './support/mail-links.ts'
import { ownServer } from './support/own-server.ts'
import { adminUser } from './support/users.ts'

// A public app with accounts of its own (templates/fullstack/README.md "Sign-in for a public
// app", docs/product/mail.md "An app's own mail"): the Demo model's members-only notes app,
// deployed; its visitors sign up inside it, confirm by a link mailed through Sprout to a real SMTP
// server, and the server keeps deleting a note for the app's admins.
const port = 3133
let smtp: SmtpPeer
let server: ReturnType<typeof ownServer>
test.use({ baseURL: `http://localhost:${port}` })
test.describe.configure({ timeout: DEVBOX_READY_TIMEOUT + 300_000 })
test.beforeAll(async () => {
  test.setTimeout(120_000)
  smtp = await startSmtpPeer()
  server = ownServer(port, { SMTP_URL: smtp.url, MAIL_FROM: 'Sprout Mail <mail@sprout.test>' })
  await server.start()
})
test.afterAll(async () => {
  await server?.stop()
  await smtp?.close()
})
test.afterEach(async ({ page: _page }, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) console.log(server.output())
})

const agentWork = { timeout: 60_000 }

/** Signs up in the app, confirms by the mailed link, and is signed in. */
async function joinApp(live: Page, name: string, email: string) {
  const signUp = live.getByRole('region', { name: 'Sign up' })
  await signUp.getByLabel('Name').fill(name)
  await signUp.getByLabel('Email').fill(email)
  await signUp.getByLabel('Password').fill('a long enough password')
  await signUp.getByRole('button', { name: 'Sign up' }).click()
  await expect(
    signUp.getByText('Check your email for a link to confirm your address.'),
  ).toBeVisible()
  const link = await confirmationLinkFor(smtp, email)
  expect(new URL(link).origin).toBe(new URL(live.url()).origin)
  await live.goto(link)
  await expect(live.getByText(`Signed in as ${name}`)).toBeVisible()
}

test('the Demo’s members-only notes app: sign-up confirmed by mail, and deleting for admins only', async ({
  page,
  browser,
}) => {
  await new SignUpPage(page).goto()
  await new SignUpPage(page).signUp(adminUser)
  const home = new HomePage(page)
  await home.heading.waitFor()
  await home.openCreateDialog()
  await home.createDialog.fill({
    name: 'Club notes',
    description: 'Build a members-only notes app',
  })
  await home.createDialog.createButton.click()
  await page.waitForURL(/\/applications\/[^/]+\/edit$/, { timeout: DEVBOX_READY_TIMEOUT + 30_000 })
  const chat = new ChatPanel(page)
  await expect(chat.agentMessages.last()).toContainText(
    "Members' Notes has accounts of its own",
    agentWork,
  )
  await expect(chat.interruptButton).toHaveCount(0, agentWork)
  const builder = new BuilderPage(page)
  await builder.deployButton.click()
  await expect(builder.deployNotice).toContainText('Deployment initiated successfully!', {
    timeout: 180_000,
  })
  const liveUrl = (await builder.liveLink.getAttribute('href')) ?? ''

  // The first account is the app's owner; its mail came through Sprout, under the app's name.
  const ownerContext = await browser.newContext()
  const owner = await ownerContext.newPage()
  await owner.goto(liveUrl)
  const ownerEmail = `olive-${Date.now()}@example.com`
  await joinApp(owner, 'Olive Owner', ownerEmail)
  await expect(owner.getByText('(owner)')).toBeVisible()
  const mail = smtp.received.findLast((message) => message.to.includes(ownerEmail))
  expect(mail?.raw).toMatch(/From: Club notes <mail@sprout\.test>/)
  await owner.getByRole('textbox', { name: 'Note' }).fill('Bring snacks on Friday')
  await owner.getByRole('button', { name: 'Add note' }).click()
  await expect(
    owner.getByRole('region', { name: 'Notes' }).getByText('Bring snacks on Friday'),
  ).toBeVisible()

  // A second account is a member: it reads the notes, and the server refuses it a delete.
  const memberContext = await browser.newContext()
  const member = await memberContext.newPage()
  await member.goto(liveUrl)
  const memberEmail = `max-${Date.now()}@example.com`
  await joinApp(member, 'Max Member', memberEmail)
  // Signed out, then in again with the password.
  await member.getByRole('button', { name: 'Sign out' }).click()
  const signIn = member.getByRole('region', { name: 'Sign in' })
  await signIn.getByLabel('Email').fill(memberEmail)
  await signIn.getByLabel('Password').fill('a long enough password')
  await signIn.getByRole('button', { name: 'Sign in' }).click()
  await expect(member.getByText('(member)')).toBeVisible()
  await expect(member.getByText('Bring snacks on Friday')).toBeVisible()
  await expect(member.getByRole('button', { name: /^Delete/ })).toHaveCount(0)
  const refused = await member.evaluate(async () => {
    const list = (await (await fetch('/api/member-notes')).json()) as { notes: { id: number }[] }
    const answer = await fetch(`/api/member-notes/${list.notes[0]?.id}`, { method: 'DELETE' })
    return { status: answer.status, body: await answer.json() }
  })
  expect(refused).toEqual({ status: 403, body: { error: 'Only admins can do this.' } })

  // The owner may.
  await owner.reload()
  await owner.getByRole('button', { name: 'Delete the note by Olive Owner' }).click()
  await expect(owner.getByText('No notes yet.')).toBeVisible()
  await ownerContext.close()
  await memberContext.close()
})

import { expect, test } from '@playwright/test'
import { ChatPanel } from './pages/chat-panel.ts'
import { HomePage } from './pages/home-page.ts'
import { expectPath } from './support/location.ts'
import { signUpNewUser } from './support/session.ts'

test('exploring an idea with the Demo model, then building it', async ({ page }) => {
  await signUpNewUser(page, 'Explorer')
  const home = new HomePage(page)
  await page.getByRole('button', { name: 'Explore an idea' }).click()
  await expect(page).toHaveURL(/\/explore\/[^/]+$/)
  await expect(page.getByRole('heading', { name: 'Exploration Mode' })).toBeVisible()
  await expect(page.getByText("Let's figure out what you want to build")).toBeVisible()
  const buildThis = page.getByRole('button', { name: 'Build this' })
  await expect(buildThis).toBeDisabled()

  const chat = new ChatPanel(page, 'Exploration chat')
  await expect(chat.input).toHaveAttribute('placeholder', 'Tell me about your idea...')
  await chat.send('A recipe tracker for my family')
  await expect(chat.userMessages).toHaveText(['A recipe tracker for my family'])
  // The Demo model has no tools in exploration mode: it answers with its honest help text.
  await expect(chat.agentMessages.last()).toContainText('I am the Demo model', { timeout: 30_000 })

  // The stream survives a reload: the same messages, once.
  await page.reload()
  await expect(chat.agentMessages.last()).toContainText('I am the Demo model')
  await expect(chat.userMessages).toHaveText(['A recipe tracker for my family'])

  await buildThis.click()
  await expectPath(page, '/')
  await expect(home.createDialog.dialog).toBeVisible()
  await expect(home.createDialog.descriptionInput).toHaveValue('A recipe tracker for my family')

  await page.goBack()
  await page.getByRole('link', { name: 'Back' }).click()
  await expectPath(page, '/')
})

// That the stream then stops retrying is proved with fake timers in stream-connection.test.ts.
test('an unknown exploration shows a not-found page', async ({ page }) => {
  await signUpNewUser(page, 'Lost')
  await page.goto('/explore/no-such-exploration')
  await expect(page.getByRole('heading', { name: 'Exploration not found' })).toBeVisible()
  await page.getByRole('link', { name: 'Back to Applications' }).click()
  await expectPath(page, '/')
})

test("a failed 'Explore an idea' says why, and a second try works", async ({ page }) => {
  await signUpNewUser(page, 'Unlucky')
  let refuse = true
  await page.route('**/api/explorations', (route) =>
    refuse && route.request().method() === 'POST'
      ? route.fulfill({ status: 503, json: { error: 'The server is busy' } })
      : route.continue(),
  )
  const explore = page.getByRole('button', { name: 'Explore an idea' })
  await explore.click()
  await expect(page.getByRole('alert')).toHaveText(
    'Could not start an exploration: The server is busy',
  )
  refuse = false
  await explore.click()
  await expect(page).toHaveURL(/\/explore\/[^/]+$/)
})

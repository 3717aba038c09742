import { expect, test } from '@playwright/test'
import { BuilderPage } from './pages/builder-page.ts'
import { ChatPanel } from './pages/chat-panel.ts'
import {
  createApplicationViaApi,
  DEVBOX_READY_TIMEOUT,
  uniqueApplicationName,
} from './support/applications.ts'
import { signUpNewUser } from './support/session.ts'

// The vault (docs/product/vault.md): the 'Vault Secrets' modal, and the secret widget the agent
// puts in the chat, with the Demo model's weather app that needs an API key.

const agentWork = { timeout: 60_000 }

test('the Vault Secrets modal adds, lists and deletes secrets, and never shows a value again', async ({
  page,
}) => {
  test.setTimeout(DEVBOX_READY_TIMEOUT + 60_000)
  await signUpNewUser(page, 'Keeper')
  const application = await createApplicationViaApi(page, uniqueApplicationName('Keys'))
  const builder = new BuilderPage(page)
  await builder.goto(application.id)
  // docs/product/builder.md "Preview pane": in the 250 px pane the toolbar's buttons flow onto
  // further rows, none cut off.
  for (const name of [
    'Refresh preview',
    'Check now',
    'History',
    'Vault Secrets',
    'Download',
    'Push to Git',
  ]) {
    await expect(builder.toolbar.getByRole('button', { name, exact: true })).toBeInViewport({
      ratio: 1,
    })
  }
  await builder.vaultButton.click()
  const modal = page.getByRole('dialog', { name: 'Vault Secrets' })
  await expect(modal.getByText('No secrets found in vault')).toBeVisible()

  await modal.getByRole('button', { name: 'Add Secret' }).click()
  const set = modal.getByRole('button', { name: 'Set', exact: true })
  await expect(set).toBeDisabled()
  await modal.getByLabel('Secret key').fill('VITE_STRIPE_KEY')
  await modal.getByLabel('Secret value').fill('sk_test_modal_value_123')
  await expect(modal.getByLabel('Secret value')).toHaveAttribute('type', 'password')
  await set.click()
  await expect(modal.getByRole('alert')).toContainText('compiled into the app')
  await modal.getByLabel('Secret key').fill('STRIPE_KEY')
  await set.click()
  const row = modal.getByRole('row', { name: /STRIPE_KEY/ })
  await expect(row).toBeVisible()
  await expect(row).toContainText('••••••••')
  expect(await page.content()).not.toContain('sk_test_modal_value_123')

  // After a reload the key is listed, its value still not.
  await page.reload()
  await builder.vaultButton.click()
  await expect(row).toBeVisible()
  expect(await page.content()).not.toContain('sk_test_modal_value_123')
  await modal.getByRole('button', { name: 'Delete secret STRIPE_KEY' }).click()
  await expect(modal).toContainText('Are you sure you want to delete the secret "STRIPE_KEY"?')
  await modal.getByRole('button', { name: 'Delete', exact: true }).click()
  await expect(modal.getByText('No secrets found in vault')).toBeVisible()
  await modal.getByRole('button', { name: 'Close' }).click()
  await expect(modal).toHaveCount(0)
})

test("the Demo model's weather app asks for its key in the chat, then its server route uses it", async ({
  page,
}) => {
  test.setTimeout(DEVBOX_READY_TIMEOUT + 180_000)
  await signUpNewUser(page, 'Forecaster')
  const application = await createApplicationViaApi(page, uniqueApplicationName('Weather'))
  const builder = new BuilderPage(page)
  await builder.goto(application.id)
  const chat = new ChatPanel(page)
  await chat.send('Build a weather app')

  const widget = chat.transcript.getByRole('form', { name: 'Secret WEATHER_API_KEY' })
  await expect(widget).toBeVisible(agentWork)
  await expect(widget.getByLabel('Key')).toHaveValue('WEATHER_API_KEY')
  const value = widget.getByPlaceholder('Value')
  await expect(value).toHaveAttribute('type', 'password')
  await value.fill('weather-demo-key-42')
  await value.press('Enter')
  const saved = chat.transcript.getByTestId('secret-saved')
  await expect(saved).toContainText('WEATHER_API_KEY')
  await expect(saved).toContainText('Saved')

  // The product tells the agent, which checks the key and writes the route that reads it.
  await expect(chat.userMessages.last()).toHaveText(
    'I\'ve set the secret "WEATHER_API_KEY". Please continue.',
    agentWork,
  )
  await expect(chat.agentMessages.last()).toContainText('reads WEATHER_API_KEY', agentWork)
  await expect(chat.toolCall('Write: server/app.ts')).toBeVisible()
  await expect(chat.interruptButton).toHaveCount(0, agentWork)
  expect(await page.content()).not.toContain('weather-demo-key-42')

  // The preview's page calls the route, which has the key from the vault.
  await builder.interactCover.click()
  await expect(builder.frame.getByText('Connected with your WEATHER_API_KEY')).toBeVisible(
    agentWork,
  )
  await expect(builder.frame.getByText('Light rain')).toBeVisible()

  // After a reload the request shows as saved; the modal lists the key.
  await page.reload()
  await expect(chat.transcript.getByTestId('secret-saved').first()).toContainText(
    'Saved',
    agentWork,
  )
  await builder.vaultButton.click()
  await expect(
    page
      .getByRole('dialog', { name: 'Vault Secrets' })
      .getByRole('row', { name: /WEATHER_API_KEY/ }),
  ).toBeVisible()
})

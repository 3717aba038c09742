import { expect, test } from '@playwright/test'
import { HomePage } from './pages/home-page.ts'
import { signUpNewUser } from './support/session.ts'

test('the model selector groups models by provider, shows details and closes', async ({ page }) => {
  await signUpNewUser(page, 'Picker')
  const home = new HomePage(page)
  const { modelSelector } = home
  // The selector sits in the create dialog (docs/product/applications.md "Create dialog").
  await home.openCreateDialog()
  // No provider keys in the test server: the Demo model is the only one available.
  await expect(modelSelector.button).toHaveText('Demo')

  await modelSelector.open()
  for (const group of ['Anthropic', 'OpenAI', 'xAI', 'Demo']) {
    await expect(modelSelector.group(group)).toBeVisible()
  }
  const sonnet = modelSelector.option('Claude Sonnet 4.5')
  await expect(sonnet).toHaveAttribute('aria-disabled', 'true')
  await expect(sonnet).toContainText('Set ANTHROPIC_API_KEY to use this model.')
  await sonnet.hover()
  await expect(modelSelector.details).toContainText('Claude Sonnet 4.5')
  for (const label of ['Performance', 'Speed', 'Reasoning', 'Input', 'Output', 'Cache Read']) {
    await expect(modelSelector.details).toContainText(label)
  }
  await expect(
    modelSelector.details.getByRole('img', { name: /^Performance: \d out of 5$/ }),
  ).toBeVisible()

  // Escape closes the popup first, and only then the dialog.
  await page.keyboard.press('Escape')
  await expect(modelSelector.listbox).toBeHidden()
  await expect(home.createDialog.dialog).toBeVisible()

  await modelSelector.open()
  await home.createDialog.dialog.getByRole('heading', { name: 'Create Application' }).click()
  await expect(modelSelector.listbox).toBeHidden()
  await expect(home.createDialog.dialog).toBeVisible()
})

test('the chosen model is remembered in local storage across reloads', async ({ page }) => {
  await signUpNewUser(page, 'Chooser')
  const home = new HomePage(page)
  const { modelSelector } = home
  await home.openCreateDialog()
  await modelSelector.open()
  await modelSelector.option('Demo').click()
  await expect(modelSelector.listbox).toBeHidden()
  expect(await page.evaluate(() => localStorage.getItem('selectedModel'))).toBe('demo')
  await page.reload()
  await home.openCreateDialog()
  await expect(modelSelector.button).toHaveText('Demo')
})

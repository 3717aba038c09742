import type { Page } from '@playwright/test'

export class ModelSelector {
  readonly page: Page
  readonly button
  readonly listbox
  readonly details

  constructor(page: Page) {
    this.page = page
    this.button = page.locator('button[aria-haspopup="listbox"]')
    this.listbox = page.getByRole('listbox', { name: 'Models' })
    this.details = page.getByTestId('model-details')
  }

  group(name: string) {
    return this.listbox.getByRole('group', { name, exact: true })
  }

  option(name: string) {
    return this.listbox.getByRole('option', { name })
  }

  async open() {
    await this.button.click()
    await this.listbox.waitFor()
  }
}

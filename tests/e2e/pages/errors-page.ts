import type { Locator, Page } from '@playwright/test'

/** /errors (docs/product/error-monitoring.md "Errors page"). */
export class ErrorsPage {
  readonly page: Page
  readonly heading
  readonly cards
  readonly dialog

  constructor(page: Page) {
    this.page = page
    this.heading = page.getByRole('heading', { name: 'Error Monitoring', level: 1 })
    this.cards = page.getByRole('list', { name: 'Error groups' }).getByRole('listitem')
    this.dialog = page.getByRole('dialog')
  }

  async goto() {
    await this.page.goto('/errors')
  }

  tab(name: 'Active' | 'Resolved' | 'Ignored'): Locator {
    return this.page.getByRole('tab', { name })
  }
}

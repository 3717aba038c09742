import type { Page } from '@playwright/test'

export class DevboxAuthPage {
  readonly page: Page
  readonly errorHeading
  readonly message
  readonly returnHomeLink

  constructor(page: Page) {
    this.page = page
    this.errorHeading = page.getByRole('heading', { name: 'Authentication Error' })
    this.message = page.getByRole('main').getByRole('alert')
    this.returnHomeLink = page.getByRole('link', { name: 'Return to Home' })
  }

  async goto(search: Record<string, string>) {
    await this.page.goto(`/auth/devbox?${new URLSearchParams(search)}`)
  }
}

import type { Page } from '@playwright/test'

/** /settings: the organization's integrations. */
export class SettingsPage {
  readonly page: Page
  readonly heading
  readonly grid
  readonly disconnectDialog

  constructor(page: Page) {
    this.page = page
    this.heading = page.getByRole('heading', { name: 'Settings', level: 1 })
    this.grid = page.getByRole('list', { name: 'Integrations' })
    this.disconnectDialog = page.getByRole('dialog', { name: 'Disconnect' })
  }

  async goto() {
    await this.page.goto('/settings')
  }

  card(displayName: string) {
    return this.grid.getByRole('listitem', { name: displayName, exact: true })
  }

  status(displayName: string) {
    return this.card(displayName).getByTestId('integration-status')
  }

  button(displayName: string, name: 'Connect' | 'Disconnect' | 'Select Files') {
    return this.card(displayName).getByRole('button', { name, exact: true })
  }
}

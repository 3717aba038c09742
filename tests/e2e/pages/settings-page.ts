import { PageObject } from './page-object.ts'

/** /settings: the organization's integrations. */
export class SettingsPage extends PageObject {
  readonly heading = this.page.getByRole('heading', { name: 'Settings', level: 1 })
  readonly grid = this.page.getByRole('list', { name: 'Integrations' })
  readonly disconnectDialog = this.page.getByRole('dialog', { name: 'Disconnect' })

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

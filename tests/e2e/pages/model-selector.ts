import { PageObject } from './page-object.ts'

export class ModelSelector extends PageObject {
  readonly button = this.page.locator('button[aria-haspopup="listbox"]')
  readonly listbox = this.page.getByRole('listbox', { name: 'Models' })
  readonly details = this.page.getByTestId('model-details')

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

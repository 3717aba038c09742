import { CreateApplicationDialog } from './create-application-dialog.ts'
import { ModelSelector } from './model-selector.ts'
import { PageObject } from './page-object.ts'

export class HomePage extends PageObject {
  readonly heading = this.page.getByRole('heading', { name: 'Applications', exact: true })
  readonly subtitle = this.page.getByText('Manage and preview your applications')
  readonly createApplicationButton = this.page
    .getByRole('main')
    .getByRole('button', { name: 'Create Application' })
  /** The model selector lives in the create dialog; open it first. */
  readonly modelSelector = new ModelSelector(this.page)
  readonly createDialog = new CreateApplicationDialog(this.page)
  readonly grid = this.page.getByRole('region', { name: 'Applications' })
  readonly emptyState = this.page.getByRole('heading', { name: 'No applications yet' })
  readonly deleteDialog = this.page.getByRole('dialog', { name: 'Delete Application' })

  async goto() {
    await this.page.goto('/')
  }

  async openCreateDialog() {
    await this.createApplicationButton.first().click()
    await this.createDialog.dialog.waitFor()
  }

  card(name: string) {
    return this.page.getByRole('article', { name, exact: true })
  }

  deleteButton(name: string) {
    return this.card(name).getByRole('button', { name: `Delete ${name}` })
  }
}

import { ModelSelector } from './model-selector.ts'
import { PageObject } from './page-object.ts'

export class CreateApplicationDialog extends PageObject {
  readonly dialog = this.page.getByRole('dialog', { name: 'Create Application' })
  readonly nameInput = this.dialog.getByLabel('Name')
  readonly descriptionInput = this.dialog.getByPlaceholder('Describe what you want to build...')
  readonly createButton = this.dialog.getByRole('button', { name: 'Create Application' })
  readonly creatingButton = this.dialog.getByRole('button', { name: 'Creating...' })
  readonly cancelButton = this.dialog.getByRole('button', { name: 'Cancel' })
  readonly progress = this.dialog.getByRole('status')
  readonly modelSelector = new ModelSelector(this.page)

  async fill(application: { name?: string; description: string }) {
    if (application.name !== undefined) await this.nameInput.fill(application.name)
    await this.descriptionInput.fill(application.description)
  }
}

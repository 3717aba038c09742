import type { Page } from '@playwright/test'
import { ModelSelector } from './model-selector.ts'

export class CreateApplicationDialog {
  readonly page: Page
  readonly dialog
  readonly nameInput
  readonly descriptionInput
  readonly createButton
  readonly creatingButton
  readonly cancelButton
  readonly progress
  readonly modelSelector

  constructor(page: Page) {
    this.page = page
    this.dialog = page.getByRole('dialog', { name: 'Create Application' })
    this.nameInput = this.dialog.getByLabel('Name')
    this.descriptionInput = this.dialog.getByPlaceholder('Describe what you want to build...')
    this.createButton = this.dialog.getByRole('button', { name: 'Create Application' })
    this.creatingButton = this.dialog.getByRole('button', { name: 'Creating...' })
    this.cancelButton = this.dialog.getByRole('button', { name: 'Cancel' })
    this.progress = this.dialog.getByRole('status')
    this.modelSelector = new ModelSelector(page)
  }

  async fill(application: { name?: string; description: string }) {
    if (application.name !== undefined) await this.nameInput.fill(application.name)
    await this.descriptionInput.fill(application.description)
  }
}

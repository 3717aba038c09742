import type { Page } from '@playwright/test'
import { CreateApplicationDialog } from './create-application-dialog.ts'
import { ModelSelector } from './model-selector.ts'

export class HomePage {
  readonly page: Page
  readonly heading
  readonly subtitle
  readonly createApplicationButton
  /** The model selector lives in the create dialog; open it first. */
  readonly modelSelector
  readonly createDialog
  readonly grid
  readonly emptyState
  readonly deleteDialog

  constructor(page: Page) {
    this.page = page
    this.heading = page.getByRole('heading', { name: 'Applications', exact: true })
    this.subtitle = page.getByText('Manage and preview your applications')
    this.createApplicationButton = page
      .getByRole('main')
      .getByRole('button', { name: 'Create Application' })
    this.modelSelector = new ModelSelector(page)
    this.createDialog = new CreateApplicationDialog(page)
    this.grid = page.getByRole('region', { name: 'Applications' })
    this.emptyState = page.getByRole('heading', { name: 'No applications yet' })
    this.deleteDialog = page.getByRole('dialog', { name: 'Delete Application' })
  }

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

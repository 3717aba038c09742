import type { Page } from '@playwright/test'

export class AdminPage {
  readonly page: Page
  readonly tabs
  readonly accessRestricted
  readonly noPermission

  constructor(page: Page) {
    this.page = page
    this.tabs = page.getByRole('navigation', { name: 'Admin sections' })
    this.accessRestricted = page.getByRole('heading', { name: 'Access Restricted' })
    this.noPermission = page.getByText("You don't have permission to access this page.")
  }

  async goto(path: '/admin' | '/admin/evals' | '/admin/pool' = '/admin') {
    await this.page.goto(path)
  }

  tab(name: 'Integrations' | 'Conversation Evaluations' | 'Devbox Pool') {
    return this.tabs.getByRole('link', { name })
  }
}

import { PageObject } from './page-object.ts'

export class AdminPage extends PageObject {
  readonly tabs = this.page.getByRole('navigation', { name: 'Admin sections' })
  readonly accessRestricted = this.page.getByRole('heading', { name: 'Access Restricted' })
  readonly noPermission = this.page.getByText("You don't have permission to access this page.")

  async goto(path: '/admin' | '/admin/evals' | '/admin/pool' = '/admin') {
    await this.page.goto(path)
  }

  tab(
    name:
      | 'Integrations'
      | 'Conversation Evaluations'
      | 'Devbox Pool'
      | 'Users'
      | 'Mail'
      | 'Audit'
      | 'Access',
  ) {
    return this.tabs.getByRole('link', { name })
  }
}

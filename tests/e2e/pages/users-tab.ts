import { PageObject } from './page-object.ts'

/** The admin's Users tab (docs/product/admin.md "Users tab"). */
export class UsersTab extends PageObject {
  readonly search = this.page.getByRole('searchbox', { name: 'Search users' })
  readonly status = this.page.getByRole('status')
  readonly resetLink = this.page.getByRole('textbox', { name: 'Reset link' })
  readonly banDialog = this.page.getByRole('dialog')
  readonly reason = this.banDialog.getByLabel('Reason')

  async goto() {
    await this.page.goto('/admin/users')
  }

  row(email: string) {
    return this.page.getByRole('row').filter({ hasText: email })
  }

  /** Searches for the user and picks an action of their row's menu. */
  async act(email: string, action: string) {
    await this.search.fill(email)
    await this.row(email)
      .getByRole('button', { name: `Actions for ${email}` })
      .click()
    await this.page.getByRole('menuitem', { name: action }).click()
  }
}

import { PageObject } from './page-object.ts'

/** The Account page (docs/product/auth.md "Account"). */
export class AccountPage extends PageObject {
  readonly heading = this.page.getByRole('heading', { name: 'Account', exact: true })
  readonly profile = this.page.getByRole('region', { name: 'Profile' })
  readonly password = this.page.getByRole('region', { name: 'Password' })
  readonly sessionsSection = this.page.getByRole('region', { name: 'Sessions' })
  readonly sessions = this.sessionsSection
    .getByRole('list', { name: 'Your sessions' })
    .getByRole('listitem')
  readonly deleteSection = this.page.getByRole('region', { name: 'Delete account' })
  readonly deleteDialog = this.page.getByRole('dialog', { name: 'Delete your account?' })

  async goto() {
    await this.page.goto('/account')
    await this.heading.waitFor()
  }

  /** Types the new name and submits with Enter. */
  async rename(name: string) {
    const field = this.profile.getByLabel('Name')
    await field.fill(name)
    await field.press('Enter')
  }

  async changePassword(current: string, next: string, confirmation = next) {
    await this.password.getByLabel('Current password').fill(current)
    await this.password.getByLabel('New password', { exact: true }).fill(next)
    await this.password.getByLabel('Confirm new password').fill(confirmation)
    await this.password.getByLabel('Confirm new password').press('Enter')
  }

  async signOutOtherSessions() {
    await this.sessionsSection.getByRole('button', { name: 'Sign out other sessions' }).click()
  }

  async openDeleteDialog() {
    await this.deleteSection.getByRole('button', { name: 'Delete account' }).click()
    await this.deleteDialog.waitFor()
  }
}

import type { Page } from '@playwright/test'

export class Navbar {
  readonly page: Page
  readonly brand
  readonly userButton
  readonly menu
  readonly currentOrganization
  readonly signInButton
  readonly signUpButton

  constructor(page: Page) {
    this.page = page
    const banner = page.getByRole('banner')
    this.brand = banner.getByRole('link', { name: 'Sprout' })
    this.userButton = banner.getByRole('button', { name: 'User menu' })
    this.menu = page.getByRole('menu', { name: 'User menu' })
    this.currentOrganization = banner.getByTestId('current-organization')
    this.signInButton = banner.getByRole('link', { name: 'Sign in' })
    this.signUpButton = banner.getByRole('link', { name: 'Sign up' })
  }

  async openMenu() {
    await this.userButton.click()
    await this.menu.waitFor()
  }

  /** Picks 'Personal' or an organization by name from the user menu. */
  async switchTo(name: string) {
    await this.openMenu()
    await this.menu.getByRole('menuitemradio', { name }).click()
  }

  async manageOrganizations() {
    await this.openMenu()
    await this.menu.getByRole('menuitem', { name: 'Manage organizations' }).click()
  }

  /** Follows one of the user menu's links: 'Settings', 'Error Monitoring', 'Admin'... */
  async goTo(name: string) {
    await this.openMenu()
    await this.menu.getByRole('menuitem', { name, exact: true }).click()
  }

  async signOut() {
    await this.openMenu()
    await this.menu.getByRole('menuitem', { name: 'Sign out' }).click()
  }
}

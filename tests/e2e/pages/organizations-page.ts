import { PageObject } from './page-object.ts'

export class OrganizationsPage extends PageObject {
  readonly heading = this.page.getByRole('heading', { name: 'Organizations', exact: true })
  readonly list = this.page.getByRole('list', { name: 'Your organizations' })
  readonly chooseNotice = this.page.getByText('Choose an organization to continue.')

  async goto() {
    await this.page.goto('/organizations')
  }

  card(name: string) {
    return this.list.getByRole('listitem', { name, exact: true })
  }

  async create(name: string) {
    await this.page.getByLabel('Organization name').fill(name)
    await this.page.getByRole('button', { name: 'Create organization' }).click()
    await this.managePanel(name).waitFor()
  }

  async switchTo(name: string) {
    await this.page.getByRole('button', { name: `Switch to ${name}`, exact: true }).click()
  }

  async manage(name: string) {
    await this.page.getByRole('button', { name: `Manage ${name}`, exact: true }).click()
    await this.managePanel(name).waitFor()
  }

  managePanel(name: string) {
    return this.page.getByRole('region', { name: `Manage ${name}` })
  }

  members(name: string) {
    return this.managePanel(name).getByRole('list', { name: 'Members' }).getByRole('listitem')
  }

  /** Invites `email` and returns the invitation link shown for copying. */
  async invite(name: string, email: string, role: 'Member' | 'Admin' = 'Member') {
    const panel = this.managePanel(name)
    await panel.getByLabel('Email').fill(email)
    await panel.getByLabel('Role').selectOption({ label: role })
    await panel.getByRole('button', { name: 'Invite', exact: true }).click()
    const link = panel.getByRole('textbox', { name: `Invitation link for ${email}` }).first()
    await link.waitFor()
    return link.inputValue()
  }

  async leave(name: string) {
    const panel = this.managePanel(name)
    await panel.getByRole('button', { name: 'Leave organization' }).click()
    await panel.getByRole('button', { name: 'Leave', exact: true }).click()
  }
}

import { PageObject } from './page-object.ts'

/** The 'Single sign-on' section of the admin's Access tab. */
export class SingleSignOnSection extends PageObject {
  readonly section = this.page.getByRole('region', { name: 'Single sign-on' })
  readonly source = this.section.getByTestId('single-sign-on-source')
  readonly callbackUrl = this.section.getByLabel('Callback URL')

  async goto() {
    await this.page.goto('/admin/access')
  }

  field(label: 'Issuer' | 'Client ID' | 'Client secret' | 'Button name') {
    return this.section.getByLabel(label, { exact: true })
  }

  async save() {
    await this.section.getByRole('button', { name: 'Save single sign-on' }).click()
  }
}

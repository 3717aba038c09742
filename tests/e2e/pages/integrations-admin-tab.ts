import { PageObject } from './page-object.ts'

type IntegrationFields = {
  serviceName: string
  displayName?: string
  clientId: string
  clientSecret: string
  authUrl: string
  tokenUrl: string
  revokeUrl?: string
  scopes?: string
  additionalParams?: string
}

/** The admin panel's Integrations tab (/admin) and its form. */
export class IntegrationsAdminTab extends PageObject {
  readonly heading = this.page.getByRole('heading', { name: 'Integrations', level: 2 })
  readonly addButton = this.page.getByRole('button', { name: 'Add Integration' })
  readonly form = this.page.getByRole('dialog')

  async goto() {
    await this.page.goto('/admin')
  }

  row(serviceName: string) {
    return this.page.getByRole('row', { name: serviceName, exact: true })
  }

  field(label: string) {
    return this.form.getByLabel(label, { exact: true })
  }

  save() {
    return this.form.getByRole('button', { name: 'Save' }).click()
  }

  async fill(fields: IntegrationFields) {
    await this.field('Service Name').fill(fields.serviceName)
    if (fields.displayName !== undefined) {
      await this.field('Display Name').fill(fields.displayName)
    }
    await this.field('Client ID').fill(fields.clientId)
    await this.field('Client Secret').fill(fields.clientSecret)
    await this.field('Auth URL').fill(fields.authUrl)
    await this.field('Token URL').fill(fields.tokenUrl)
    if (fields.revokeUrl !== undefined) await this.field('Revoke URL').fill(fields.revokeUrl)
    if (fields.scopes !== undefined) await this.field('Scopes').fill(fields.scopes)
    if (fields.additionalParams !== undefined) {
      await this.field('Additional Parameters').fill(fields.additionalParams)
    }
  }
}

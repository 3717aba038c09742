import { PageObject } from './page-object.ts'

/** The login page of the test OpenID Connect provider (apps/server/src/testing/openid-provider.ts). */
export class IdentityProviderPage extends PageObject {
  readonly heading = this.page.getByRole('heading', { name: 'Test identity provider' })

  async signIn(email: string) {
    await this.heading.waitFor()
    await this.page.getByLabel('Email').fill(email)
    await this.page.getByRole('button', { name: 'Continue' }).click()
  }
}

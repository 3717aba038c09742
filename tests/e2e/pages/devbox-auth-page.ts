import { PageObject } from './page-object.ts'

export class DevboxAuthPage extends PageObject {
  readonly errorHeading = this.page.getByRole('heading', { name: 'Authentication Error' })
  readonly message = this.page.getByRole('main').getByRole('alert')
  readonly returnHomeLink = this.page.getByRole('link', { name: 'Return to Home' })

  async goto(search: Record<string, string>) {
    await this.page.goto(`/auth/devbox?${new URLSearchParams(search)}`)
  }
}

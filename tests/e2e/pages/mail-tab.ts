import { PageObject } from './page-object.ts'

/** The admin panel's Mail tab (docs/product/mail.md "What the admin sees"). */
export class MailTab extends PageObject {
  readonly tab = this.page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', {
    name: 'Mail',
  })
  readonly heading = this.page.getByRole('heading', { name: 'Mail', exact: true })
  readonly notConfigured = this.page.getByRole('heading', { name: 'Mail is not configured' })
  readonly pending = this.page.getByTestId('mail-pending')
  readonly noProblems = this.page.getByRole('heading', { name: 'No delivery problems' })

  async goto() {
    await this.page.goto('/admin/mail')
  }

  /** A row of Delivery problems, named by its subject and recipient. */
  failure(subject: string, recipient: string) {
    return this.page.getByRole('row', { name: `${subject} to ${recipient}` })
  }
}

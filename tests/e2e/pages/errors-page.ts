import type { Locator } from '@playwright/test'
import { PageObject } from './page-object.ts'

/** /errors (docs/product/error-monitoring.md "Errors page"). */
export class ErrorsPage extends PageObject {
  readonly heading = this.page.getByRole('heading', { name: 'Error Monitoring', level: 1 })
  readonly cards = this.page.getByRole('list', { name: 'Error groups' }).getByRole('listitem')
  readonly dialog = this.page.getByRole('dialog')

  async goto() {
    await this.page.goto('/errors')
  }

  tab(name: 'Active' | 'Resolved' | 'Ignored'): Locator {
    return this.page.getByRole('tab', { name })
  }
}

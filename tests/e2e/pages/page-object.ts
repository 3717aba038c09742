import type { Page } from '@playwright/test'

/** What every page object holds: the page its locators belong to. */
export class PageObject {
  readonly page: Page

  constructor(page: Page) {
    this.page = page
  }
}

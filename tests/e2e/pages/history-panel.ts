import type { Locator } from '@playwright/test'
import { PageObject } from './page-object.ts'

/** The builder's History panel (docs/product/versions.md "History", "Diffs", "Restore"). */
export class HistoryPanel extends PageObject {
  readonly openButton = this.page
    .getByRole('toolbar', { name: 'Preview tools' })
    .getByRole('button', { name: 'History', exact: true })
  readonly region = this.page.getByRole('region', { name: 'History', exact: true })
  readonly rows = this.region.getByTestId('version-row')
  readonly versionHeading = this.region.getByRole('heading', { name: /^Version \d+$/ })
  readonly backButton = this.region.getByRole('button', { name: '← All versions' })
  readonly restoreButton = this.region.getByRole('button', { name: 'Restore this version' })
  readonly closeButton = this.region.getByRole('button', { name: 'Close', exact: true })
  /** A restore under way, at the top of the list. */
  readonly restoreProgress = this.region.getByTestId('restore-progress')
  readonly dialog = this.page.getByRole('dialog')

  /** The row of the version whose title is `title`. */
  row(title: string): Locator {
    return this.rows.filter({ hasText: title })
  }

  /** One file of the open diff. */
  diffFile(path: string): Locator {
    return this.region.getByRole('region', { name: path, exact: true })
  }

  layoutButton(name: 'Unified' | 'Side by side'): Locator {
    return this.region.getByRole('button', { name, exact: true })
  }
}

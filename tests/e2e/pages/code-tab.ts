import type { Locator } from '@playwright/test'
import { PageObject } from './page-object.ts'

/** The builder's Code tab (docs/product/versions.md "Code"). */
export class CodeTab extends PageObject {
  readonly viewTabs = this.page.getByRole('tablist', { name: 'Preview and code' })
  readonly tab = this.viewTabs.getByRole('tab', { name: 'Code' })
  readonly previewTab = this.viewTabs.getByRole('tab', { name: 'Preview' })
  readonly region = this.page.getByRole('region', { name: 'Code', exact: true })
  readonly tree = this.region.getByRole('tree', { name: 'Files' })
  readonly editor = this.region.locator('.cm-content')
  readonly saveButton = this.region.getByRole('button', { name: 'Save', exact: true })
  readonly unsavedMarker = this.region.getByTitle('Unsaved changes').first()
  readonly banner = this.region.getByRole('status').filter({ hasText: 'The agent is working' })
  readonly dialog = this.page.getByRole('dialog', { name: 'This file changed since you opened it' })

  /** Replaces text in the open file with CodeMirror's own search panel (Ctrl/Cmd+F). */
  async replaceAll(find: string, replacement: string) {
    await this.editor.click()
    await this.page.keyboard.press('ControlOrMeta+f')
    // The panel takes its fields on keyup (what typing gives, unlike fill).
    await this.region.locator('input[name="search"]').pressSequentially(find)
    await this.region.locator('input[name="replace"]').pressSequentially(replacement)
    await this.region.locator('button[name="replaceAll"]').click()
    await this.region.locator('button[name="close"]').click()
  }

  treeItem(name: string): Locator {
    return this.tree.getByRole('treeitem', { name, exact: true })
  }
}

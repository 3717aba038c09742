import type { Page } from '@playwright/test'

export class BuilderPage {
  readonly page: Page
  readonly previewPane
  readonly toolbar
  readonly viewport
  readonly frame
  readonly iframe
  readonly interactCover
  readonly refreshButton
  readonly openInNewWindowLink
  readonly vaultButton
  readonly deployButton
  readonly redeployButton
  readonly liveLink
  readonly deployNotice
  readonly notFoundHeading
  readonly errorList

  constructor(page: Page) {
    this.page = page
    this.previewPane = page.getByRole('complementary', { name: 'Preview' })
    this.toolbar = this.previewPane.getByRole('toolbar', { name: 'Preview tools' })
    this.viewport = this.previewPane.getByTestId('preview-viewport')
    this.iframe = this.previewPane.locator('iframe[title="Application preview"]')
    this.frame = page.frameLocator('iframe[title="Application preview"]')
    this.interactCover = this.previewPane.getByRole('button', { name: 'Interact with the preview' })
    this.refreshButton = this.toolbar.getByRole('button', { name: 'Refresh preview' })
    this.openInNewWindowLink = this.toolbar.getByRole('link', { name: 'Open in new window' })
    this.vaultButton = this.toolbar.getByRole('button', { name: 'Vault Secrets' })
    this.deployButton = this.toolbar.getByRole('button', { name: 'Deploy', exact: true })
    this.redeployButton = this.toolbar.getByRole('button', { name: 'Redeploy to Production' })
    this.liveLink = this.toolbar.getByRole('link', { name: 'Live' })
    this.deployNotice = page.getByTestId('deploy-notice')
    this.notFoundHeading = page.getByRole('heading', { name: 'Application not found' })
    this.errorList = this.previewPane.getByRole('region', { name: 'Errors' })
  }

  async goto(applicationId: string) {
    await this.page.goto(`/applications/${applicationId}/edit`)
  }

  async paneWidth(): Promise<number> {
    const box = await this.previewPane.boundingBox()
    return Math.round(box?.width ?? 0)
  }
}

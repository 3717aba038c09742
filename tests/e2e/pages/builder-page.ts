import { PageObject } from './page-object.ts'

export class BuilderPage extends PageObject {
  readonly previewPane = this.page.getByRole('complementary', { name: 'Preview' })
  readonly toolbar = this.previewPane.getByRole('toolbar', { name: 'Preview tools' })
  readonly viewport = this.previewPane.getByTestId('preview-viewport')
  readonly iframe = this.previewPane.locator('iframe[title="Application preview"]')
  readonly frame = this.page.frameLocator('iframe[title="Application preview"]')
  readonly interactCover = this.previewPane.getByRole('button', {
    name: 'Interact with the preview',
  })
  readonly refreshButton = this.toolbar.getByRole('button', { name: 'Refresh preview' })
  readonly openInNewWindowLink = this.toolbar.getByRole('link', { name: 'Open in new window' })
  readonly vaultButton = this.toolbar.getByRole('button', { name: 'Vault Secrets' })
  readonly deployButton = this.toolbar.getByRole('button', { name: 'Deploy', exact: true })
  readonly redeployButton = this.toolbar.getByRole('button', { name: 'Redeploy to Production' })
  readonly liveLink = this.toolbar.getByRole('link', { name: 'Live' })
  readonly deployNotice = this.page.getByTestId('deploy-notice')
  readonly notFoundHeading = this.page.getByRole('heading', { name: 'Application not found' })
  readonly errorList = this.previewPane.getByRole('region', { name: 'Errors' })
  /** On a phone the chat and the preview are tabs. */
  readonly paneTabs = this.page.getByRole('tablist', { name: 'Builder' })
  readonly chatTab = this.paneTabs.getByRole('tab', { name: 'Chat' })
  readonly previewTab = this.paneTabs.getByRole('tab', { name: 'Preview' })

  async goto(applicationId: string) {
    await this.page.goto(`/applications/${applicationId}/edit`)
  }

  async paneWidth(): Promise<number> {
    const box = await this.previewPane.boundingBox()
    return Math.round(box?.width ?? 0)
  }
}

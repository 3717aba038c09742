import type { Page } from '@playwright/test'

export class DevboxPoolTab {
  readonly page: Page
  readonly heading
  readonly provisioning
  readonly failed
  readonly refreshNote
  readonly confirmDialog
  readonly limits

  constructor(page: Page) {
    this.page = page
    this.heading = page.getByRole('heading', { name: 'Devbox Pool' })
    this.provisioning = page.getByTestId('pool-provisioning')
    this.failed = page.getByTestId('pool-failed')
    this.refreshNote = page.getByText('Stats refresh every 10 seconds')
    this.confirmDialog = page.getByRole('dialog', { name: 'Cycle Pool' })
    this.limits = page.getByRole('region', { name: 'Limits per devbox' })
  }

  async goto() {
    await this.page.goto('/admin/pool')
  }

  pack(packType: string) {
    return this.page.getByRole('row', { name: packType })
  }

  enforcement(
    part:
      | 'filesystem'
      | 'network'
      | 'user'
      | 'pids'
      | 'memory'
      | 'cpu'
      | 'disk'
      | 'syscalls'
      | 'node',
  ) {
    return this.page.getByTestId(`enforcement-${part}`)
  }

  readyOverTarget(packType: string) {
    return this.page.getByTestId(`pool-ready-${packType}`)
  }

  cycleButton(packType: string) {
    return this.pack(packType).getByRole('button', { name: 'Cycle Pool' })
  }
}

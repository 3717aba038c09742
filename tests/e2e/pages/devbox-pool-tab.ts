import { PageObject } from './page-object.ts'

export class DevboxPoolTab extends PageObject {
  readonly heading = this.page.getByRole('heading', { name: 'Devbox Pool' })
  readonly provisioning = this.page.getByTestId('pool-provisioning')
  readonly failed = this.page.getByTestId('pool-failed')
  readonly refreshNote = this.page.getByText('Stats refresh every 10 seconds')
  readonly confirmDialog = this.page.getByRole('dialog', { name: 'Cycle Pool' })
  readonly limits = this.page.getByRole('region', { name: 'Limits per devbox' })

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

import { rm } from 'node:fs/promises'
import { unmountUnder } from '@sprout/devbox/drivers/local/box-disk.ts'

/**
 * Deletes a test server's DATA_DIR. Run as root, its boxes and deployed apps' data folders are
 * filesystem images mounted inside it (docs/architecture/devbox.md, "Disk"): unmounted first.
 */
export async function removeDataDirectory(dataDir: string): Promise<void> {
  await unmountUnder(dataDir)
  await rm(dataDir, { recursive: true, force: true })
}

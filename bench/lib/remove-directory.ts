import { rm } from 'node:fs/promises'
import { unmountUnder } from '../../packages/devbox/src/drivers/local/box-disk.ts'

/**
 * Deletes a benchmark's DATA_DIR or driver root. Run as root, boxes are filesystem images mounted
 * inside it that outlive the server's stop (they are reused after a restart): unmounted first.
 */
export async function removeDirectory(directory: string): Promise<void> {
  await unmountUnder(directory)
  await rm(directory, { recursive: true, force: true })
}

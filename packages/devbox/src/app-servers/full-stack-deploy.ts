import { lstat } from 'node:fs/promises'
import path from 'node:path'

/** A deploy with a back end holds the static client here and its server beside it. */
export const clientFolder = 'client'
export const serverEntry = 'server/index.js'

/**
 * True when the deploy folder holds `server/index.js` (the fullstack starter's build); an older
 * app's build is static files alone (docs/architecture/devbox.md, "Production servers").
 */
export async function isFullStackDeploy(deployDirectory: string): Promise<boolean> {
  const stats = await lstat(path.join(deployDirectory, serverEntry)).catch(() => undefined)
  return stats?.isFile() === true
}

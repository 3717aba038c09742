import { randomBytes } from 'node:crypto'
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'

/**
 * Returns the secret stored in `{dataDir}/{name}`, creating a random one (mode 0600) on first use.
 * `wx` makes two processes starting at once agree on one key.
 */
export async function loadOrCreateKeyFile(dataDir: string, name: string): Promise<string> {
  const file = path.join(dataDir, name)
  await mkdir(dataDir, { recursive: true })
  try {
    await writeFile(file, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  await chmod(file, 0o600)
  return (await readFile(file, 'utf8')).trim()
}

import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { PackType } from '../../../devbox-driver.ts'

/** What a box never copies from a starter: its installed or built files. */
const skipped = new Set(['node_modules', 'dist', '.vite', '.npm'])

/**
 * The version of each starter in `templatesDir`: a hash of its files' names and contents, read
 * once. The pool destroys boxes made from another version (an upgrade changed the starter).
 */
export function templateVersions(templatesDir: string): (packType: PackType) => string | undefined {
  const versions = new Map<string, string | undefined>()
  return (packType) => {
    if (!versions.has(packType))
      versions.set(packType, versionOf(path.join(templatesDir, packType)))
    return versions.get(packType)
  }
}

function versionOf(folder: string): string | undefined {
  if (!existsSync(folder)) return undefined
  const hash = createHash('sha256')
  const walk = (relative: string) => {
    const entries = readdirSync(path.join(folder, relative), { withFileTypes: true })
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (skipped.has(entry.name)) continue
      const name = path.posix.join(relative, entry.name)
      if (entry.isDirectory()) walk(name)
      else if (entry.isFile()) {
        hash.update(`${name}\0`)
        hash.update(readFileSync(path.join(folder, name)))
        hash.update('\0')
      }
    }
  }
  walk('')
  return hash.digest('hex').slice(0, 16)
}

import { execFile } from 'node:child_process'
import { cp, mkdtemp, readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { createDependencyCache } from '../drivers/local/workspace/dependency-cache.ts'
import { silentLogger } from '../logger.ts'
import { testCacheDir } from './devbox-support.ts'

const execFileAsync = promisify(execFile)

export const fullStackStarterDir = path.resolve(
  import.meta.dirname,
  '../../../../templates/fullstack',
)

/**
 * The full-stack starter in a temporary folder, its dependencies hard-linked from the tests'
 * cache (prepared once per lock by Vitest's global set-up): a copy a test may change and build.
 * Remove it after.
 */
export async function copyFullStackStarter(prefix = 'sprout-starter-'): Promise<string> {
  const to = await mkdtemp(path.join(tmpdir(), prefix))
  for (const entry of await readdir(fullStackStarterDir)) {
    if (['node_modules', 'dist', 'tests', '.data'].includes(entry)) continue
    await cp(path.join(fullStackStarterDir, entry), path.join(to, entry), { recursive: true })
  }
  const cache = createDependencyCache({ cacheDir: testCacheDir, logger: silentLogger })
  const installed = await cache.prepare('fullstack', fullStackStarterDir)
  await execFileAsync('cp', [
    '-al',
    path.join(installed, 'node_modules'),
    path.join(to, 'node_modules'),
  ])
  return to
}

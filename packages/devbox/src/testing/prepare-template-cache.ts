/**
 * Vitest's global set-up: installs the template's dependencies into the shared test cache once,
 * before any suite starts. Otherwise the first suites of a fresh machine would each run the same
 * `npm install` inside their `beforeAll`, in parallel, and run out of hook time under load.
 */
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { createDependencyCache } from '../drivers/local/workspace/dependency-cache.ts'
import { silentLogger } from '../logger.ts'
import { templatesDir, testCacheDir } from './devbox-support.ts'

export default async function prepareTestCache() {
  const started = performance.now()
  const cache = createDependencyCache({ cacheDir: testCacheDir, logger: silentLogger })
  for (const packType of await readdir(templatesDir)) {
    await cache.prepare(packType, path.join(templatesDir, packType))
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  console.log(`Dev box template dependencies ready in ${testCacheDir} (${seconds} s)`)
}

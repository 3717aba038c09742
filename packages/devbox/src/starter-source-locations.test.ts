import { execFile } from 'node:child_process'
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { build, createServer } from 'vite'
import { afterAll, describe, expect, it } from 'vitest'
import { createDependencyCache } from './drivers/local/workspace/dependency-cache.ts'
import { silentLogger } from './logger.ts'
import { testCacheDir } from './testing/devbox-support.ts'

// The starters' Vite plugin behind the builder's Select mode (docs/product/builder.md "Select
// mode"): elements carry their source location in the dev server, never in a build.

const templatesDir = path.resolve(import.meta.dirname, '../../../templates')
const starters = ['vite-react', 'fullstack'] as const
const pluginFile = 'vite-plugins/source-locations.ts'
const copies: string[] = []
const execFileAsync = promisify(execFile)

/**
 * A starter's files in a temporary folder, its node_modules linked from the tests' dependency
 * cache (a clean clone's templates/ has none): Vite writes nothing in templates/ or the cache.
 */
async function copyStarter(starter: string) {
  const from = path.join(templatesDir, starter)
  const to = await mkdtemp(path.join(tmpdir(), `sprout-source-locations-${starter}-`))
  copies.push(to)
  for (const entry of await readdir(from)) {
    if (['node_modules', 'dist', 'tests', '.data'].includes(entry)) continue
    await cp(path.join(from, entry), path.join(to, entry), { recursive: true })
  }
  const cache = createDependencyCache({ cacheDir: testCacheDir, logger: silentLogger })
  const installed = await cache.prepare(starter, from)
  // Hard links, not the cache itself: Vite may write under node_modules, and box overlays read
  // the cache as it is.
  await execFileAsync('cp', [
    '-al',
    path.join(installed, 'node_modules'),
    path.join(to, 'node_modules'),
  ])
  return to
}

async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
}

afterAll(async () => {
  await Promise.all(copies.map((copy) => rm(copy, { recursive: true, force: true })))
})

describe('source locations in the starters', { timeout: 120_000 }, () => {
  it('is the same plugin in both starters', async () => {
    const [first, second] = await Promise.all(
      starters.map((starter) => readFile(path.join(templatesDir, starter, pluginFile), 'utf8')),
    )
    expect(second).toBe(first)
  })

  it('tags lowercase elements with file, line and column, and leaves components alone', async () => {
    const { tagElements } = (await import(
      path.join(templatesDir, 'vite-react', pluginFile)
    )) as typeof import('../../../templates/vite-react/vite-plugins/source-locations.ts')
    const code = [
      "import { List } from './List.tsx'",
      'export const App = () => (',
      '  <main className="p-4">',
      '    <List items={[]} />',
      '    <my-widget />',
      '    <>',
      '      <button data-sprout-source="kept:1:1">Sign</button>',
      '    </>',
      '  </main>',
      ')',
    ].join('\n')
    const tagged = tagElements(code, 'src/App.tsx')
    expect(tagged).toContain('<main data-sprout-source="src/App.tsx:3:3" className="p-4">')
    expect(tagged).toContain('<List items={[]} />')
    expect(tagged).toContain('<my-widget data-sprout-source="src/App.tsx:5:5" />')
    expect(tagged).toContain('<button data-sprout-source="kept:1:1">')
    // Code that does not parse is left to the React plugin, whose error names it.
    expect(tagElements('const a = <div', 'src/Broken.tsx')).toBe('const a = <div')
  })

  for (const starter of starters) {
    it(`${starter}: the dev server tags src/App.tsx, and vite build leaves no trace of it`, async () => {
      const root = await copyStarter(starter)
      const server = await createServer({
        root,
        configFile: path.join(root, 'vite.config.ts'),
        logLevel: 'silent',
        server: { middlewareMode: true, hmr: false, ws: false },
        optimizeDeps: { noDiscovery: true, include: [] },
      })
      try {
        const app = await server.transformRequest('/src/App.tsx')
        expect(app?.code).toMatch(/"data-sprout-source": "src\/App\.tsx:\d+:\d+"/)
      } finally {
        await server.close()
      }

      await build({ root, configFile: path.join(root, 'vite.config.ts'), logLevel: 'silent' })
      const built = await filesUnder(path.join(root, 'dist'))
      expect(built.some((file) => file.endsWith('.js'))).toBe(true)
      for (const file of built) {
        expect(await readFile(file, 'utf8'), file).not.toContain('data-sprout-source')
      }
    })
  }
})

// `npm start`: builds the web app when it is missing or older than its sources, then serves.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createRequire, enableCompileCache, registerHooks } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const webDir = path.resolve('apps/web')
const builtIndex = path.join(webDir, 'dist', 'index.html')

function newestModification(directory: string): number {
  let newest = 0
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name)
    const time = entry.isDirectory() ? newestModification(full) : statSync(full).mtimeMs
    newest = Math.max(newest, time)
  }
  return newest
}

const isStale =
  !existsSync(builtIndex) ||
  statSync(builtIndex).mtimeMs < newestModification(path.join(webDir, 'src'))
if (isStale && process.env.SPROUT_SKIP_BUILD !== '1') {
  console.log('Building the web app…')
  const build = spawn('npm', ['run', 'build', '-w', '@sprout/web'], { stdio: 'inherit' })
  // Stopped while building: the build stops too, and nothing is served.
  let stopped = false
  const stopBuild = (signal: NodeJS.Signals) => {
    stopped = true
    build.kill(signal)
  }
  process.on('SIGINT', stopBuild)
  process.on('SIGTERM', stopBuild)
  const [code] = (await once(build, 'exit')) as [number | null]
  process.off('SIGINT', stopBuild)
  process.off('SIGTERM', stopBuild)
  if (stopped || code !== 0) process.exit(code || 1)
}
// The server's modules, type-stripped and compiled, are cached on disk by Node (keyed by each
// file's contents): a warm start does not strip and parse every TypeScript file again
// (docs/performance.md, "2026-11-26 · listeners, memory and start").
enableCompileCache()
resolveDrizzleDirectly()
await import('../apps/server/src/main.ts')

/**
 * drizzle-orm's relative `.js` imports are answered here: Node's ESM resolver re-parses its 179 KB
 * `exports` for each of its ~490 internal imports, ~0.6 s of CPU a start
 * (docs/performance.md "2026-11-26 · cold start and idle memory (second pass)").
 */
function resolveDrizzleDirectly() {
  const entry = createRequire(import.meta.url).resolve('drizzle-orm')
  const packageFolder = entry.slice(0, entry.lastIndexOf(`${path.sep}drizzle-orm${path.sep}`) + 12)
  const packageJson = path.join(packageFolder, 'package.json')
  if (!existsSync(packageJson)) return
  if ((JSON.parse(readFileSync(packageJson, 'utf8')) as { type?: string }).type !== 'module') return
  const packageUrl = pathToFileURL(`${packageFolder}/`).href
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (
        context.parentURL?.startsWith(packageUrl) &&
        (specifier.startsWith('./') || specifier.startsWith('../')) &&
        specifier.endsWith('.js')
      ) {
        const url = new URL(specifier, context.parentURL).href
        if (url.startsWith(packageUrl)) return { url, format: 'module', shortCircuit: true }
      }
      return nextResolve(specifier, context)
    },
  })
}

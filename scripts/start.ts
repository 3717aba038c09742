// `npm start`: builds the web app when it is missing or older than its sources, then serves.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { enableCompileCache } from 'node:module'
import path from 'node:path'

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
await import('../apps/server/src/main.ts')

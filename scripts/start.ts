// `npm start`: builds the web app when it is missing or older than its sources, then serves.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
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
  const build = spawnSync('npm', ['run', 'build', '-w', '@sprout/web'], { stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
}
await import('../apps/server/src/main.ts')

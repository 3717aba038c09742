import { mkdirSync, renameSync } from 'node:fs'
import path from 'node:path'
import { buildSync } from 'esbuild'

/**
 * The in-box agent as one plain-JavaScript file (decision 040): what the box image runs. Node
 * strips no types at its start and keeps no stripped sources, which is most of its memory:
 * 36 MiB of its own as `box-agent.ts`, 15 MiB bundled (docs/performance.md, session 17).
 * Written beside and then moved over `outfile`, so concurrent builders never leave half a file.
 */
export function bundleAgent(outfile: string): string {
  mkdirSync(path.dirname(outfile), { recursive: true })
  const written = `${outfile}.${process.pid}.tmp`
  buildSync({
    entryPoints: [path.join(import.meta.dirname, 'box-agent.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node24',
    outfile: written,
    logLevel: 'error',
  })
  renameSync(written, outfile)
  return outfile
}

// `node bundle-agent.ts <outfile>`: the box image's build (deploy/box-image/Dockerfile).
if (process.argv[1] === import.meta.filename && process.argv[2]) bundleAgent(process.argv[2])

// Figures of docs/performance.md "2026-11-26 · provisioning without copying": cold provisions
// through the local driver (each box suspended after) and the apps' disk. Flags: --apps 100 --pack
// fullstack --dependencies shared|copied --cache DIR.
import { execFileSync } from 'node:child_process'
import { mkdtemp, readdir } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { createLocalDriver } from '../packages/devbox/src/drivers/local/local-driver.ts'
import { silentLogger } from '../packages/devbox/src/logger.ts'

const { values } = parseArgs({
  options: {
    apps: { type: 'string', default: '10' },
    pack: { type: 'string', default: 'fullstack' },
    dependencies: { type: 'string' },
    cache: { type: 'string', default: path.join(os.tmpdir(), 'sprout-devbox-test-cache') },
  },
})
const apps = Number(values.apps)
const phases: Record<string, unknown>[] = []
const templatesDir = path.resolve(import.meta.dirname, '../templates')
const rootDir = await mkdtemp(path.join(os.tmpdir(), 'sprout-provisioning-figures-'))
const driver = createLocalDriver({
  rootDir,
  templatesDir,
  cacheDir: values.cache,
  logger: {
    ...silentLogger,
    info: (message: string, fields?: Record<string, unknown>) => {
      if (message === 'Provisioned dev box') phases.push(fields ?? {})
    },
  },
  disk: 'auto',
  ...(values.dependencies
    ? { dependencies: values.dependencies as 'shared' | 'copied' }
    : ({} as Record<string, never>)),
})
/** Allocated kilobytes (`du -s -k`, sparse images count only their used blocks). */
const allocatedKb = (paths: string[]) =>
  paths.length === 0
    ? 0
    : (execFileSync('du', ['-s', '-k', '-c', '-x', ...paths], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .map((line) => Number.parseInt(line.split('\t')[0] ?? '0', 10))
        .at(-1) ?? 0)

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN
}

try {
  // The cache is prepared (and, for shared dependencies, handed to the box uid) once.
  const warm = await driver.provision(values.pack as 'fullstack')
  await driver.destroy(warm.id)
  const times: number[] = []
  const startedAt = Date.now()
  for (let index = 0; index < apps; index++) {
    const started = performance.now()
    const box = await driver.provision(values.pack as 'fullstack', { id: `app-${index}` })
    times.push(performance.now() - started)
    await box.suspend?.()
  }
  const wallMs = Date.now() - startedAt
  const layersDir = path.join(rootDir, 'layers')
  const disksDir = path.join(rootDir, 'disks')
  const images = (await readdir(disksDir).catch(() => [])).map((name) => path.join(disksDir, name))
  const layers = (await readdir(layersDir).catch(() => [])).map((name) =>
    path.join(layersDir, name),
  )
  const workspaces = path.join(rootDir, 'workspaces')
  const imagesKb = allocatedKb(images)
  const layersKb = allocatedKb(layers)
  // Without images the workspaces are folders of the root's filesystem (-x: not into overlays).
  const workspacesKb = images.length === 0 ? allocatedKb([workspaces]) : 0
  const totalKb = imagesKb + layersKb + workspacesKb
  console.log(
    JSON.stringify(
      {
        pack: values.pack,
        apps,
        dependencies: values.dependencies ?? 'default',
        sandboxed: driver.sandboxed,
        disk: driver.enforcement.disk,
        provisionMs: {
          p50: Math.round(quantile(times, 0.5)),
          p95: Math.round(quantile(times, 0.95)),
          min: Math.round(Math.min(...times)),
          max: Math.round(Math.max(...times)),
        },
        wallMs,
        phasesMs: Object.fromEntries(
          ['dependenciesMs', 'diskMs', 'copyMs', 'gitMs', 'mountMs', 'devServerMs'].map((name) => [
            name,
            Math.round(
              quantile(
                phases.slice(1).map((entry) => Number(entry[name] ?? 0)),
                0.5,
              ),
            ),
          ]),
        ),
        diskKb: { images: imagesKb, layers: layersKb, workspaces: workspacesKb, total: totalKb },
        perAppMb: Number((totalKb / 1024 / apps).toFixed(1)),
      },
      null,
      2,
    ),
  )
} finally {
  for (let index = 0; index < apps; index++) await driver.destroy(`app-${index}`).catch(() => {})
  await driver.shutdown()
  execFileSync('rm', ['-rf', '--one-file-system', rootDir])
}

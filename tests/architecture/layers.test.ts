import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { findCycles, importsOf, isTestCode, sourceFiles } from './source-graph.ts'

// The server's layers (docs/architecture/overview.md "Areas and layers", decision 023): an area
// imports its own layer or a lower one, areas never import each other in a circle, and nothing
// imports the composition root (app.ts, app-areas.ts, main.ts, start-server.ts).

const server = 'apps/server/src'
const layers: Record<string, string[]> = {
  platform: ['config', 'http', 'settings', 'mail', 'audit', 'auth', 'stream', 'sealing', 'cluster'],
  entities: ['organizations', 'models', 'admin', 'applications'],
  capabilities: [
    'vault',
    'integrations',
    'evaluations',
    'error-monitoring',
    'app-runtime',
    'devboxes',
    'account',
    'versions',
    'checks',
    'images',
  ],
  chat: ['runs', 'conversations', 'explorations'],
}
const layerOrder = Object.keys(layers)
const layerOf = new Map(
  Object.entries(layers).flatMap(([layer, areas]) => areas.map((area) => [area, layer] as const)),
)
const rank = (area: string) => layerOrder.indexOf(layerOf.get(area) ?? '')

/** The area of a server file, or undefined for the composition root's own files. */
const areaOf = (file: string): string | undefined => {
  const rest = file.slice(server.length + 1)
  return rest.includes('/') ? rest.split('/')[0] : undefined
}
const productionFiles = sourceFiles(server).filter((file) => !isTestCode(file))
const serverImports = (file: string) =>
  importsOf(file).filter((target) => target.startsWith(`${server}/`))

describe('server layers', () => {
  it('name every area once', () => {
    const areas = new Set(productionFiles.map(areaOf).filter((area) => area !== undefined))
    expect([...areas].filter((area) => !layerOf.has(area))).toEqual([])
  })

  it('import nothing up the layers, and nothing of the composition root', () => {
    const upward = productionFiles.flatMap((file) => {
      const area = areaOf(file)
      if (area === undefined) return []
      return serverImports(file)
        .filter((target) => {
          const other = areaOf(target)
          return other === undefined || rank(other) > rank(area)
        })
        .map((target) => `${file} → ${target}`)
    })
    expect(upward).toEqual([])
  })

  it('have no cycle between areas', () => {
    const edges = new Map<string, Set<string>>()
    for (const file of productionFiles) {
      const area = areaOf(file)
      if (area === undefined) continue
      for (const target of serverImports(file)) {
        const other = areaOf(target)
        if (other === undefined || other === area) continue
        edges.set(area, (edges.get(area) ?? new Set()).add(other))
      }
    }
    expect(findCycles(edges)).toEqual([])
  })

  it('offer on their public faces only what the area owns', () => {
    const borrowed = productionFiles.flatMap((file) => {
      const area = areaOf(file)
      const text = sourceText(file)
      return [...text.matchAll(/export\s+(?:type\s+)?\{[^}]*\}\s+from\s+'(\.{1,2}\/[^']+)'/g)]
        .map((match) => path.join(path.dirname(file), match[1] as string))
        .filter((target) => target.startsWith(`${server}/`) && areaOf(target) !== area)
        .map((target) => `${file} re-exports ${target}`)
    })
    expect(borrowed).toEqual([])
  })
})

describe('source files', () => {
  it('never import each other in a circle', () => {
    const folders = ['apps/server/src', 'apps/web/src', 'packages']
    const files = folders.flatMap(sourceFiles).filter((file) => !isTestCode(file))
    const edges = new Map(files.map((file) => [file, new Set(importsOf(file))]))
    expect(findCycles(edges)).toEqual([])
  })
})

function sourceText(file: string): string {
  return readFileSync(path.resolve(import.meta.dirname, '../..', file), 'utf8')
}

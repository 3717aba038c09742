import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { importsOf, isTestCode, root, sourceFiles } from './source-graph.ts'

// The house's boundaries (docs/architecture/overview.md "Boundaries"): web features do not
// import each other (screens compose them), and server areas reach each other only through
// their public files. The layers between areas: layers.test.ts.

describe('web features', () => {
  const features = 'apps/web/src/features'
  const featureOf = (file: string) =>
    file.startsWith(`${features}/`) ? file.slice(features.length + 1).split('/')[0] : undefined

  it('do not import each other; shared code lives in components/, hooks/ and lib/', () => {
    const crossings = sourceFiles('apps/web/src').flatMap((file) => {
      if (isTestCode(file)) return []
      const own = featureOf(file)
      return importsOf(file)
        .filter((target) => {
          const other = featureOf(target)
          // Screens (routes/) compose features; everything else may use none but its own.
          if (file.startsWith('apps/web/src/routes/') || file.startsWith('apps/web/src/app/')) {
            return false
          }
          return other !== undefined && other !== own
        })
        .map((target) => `${file} → ${target}`)
    })
    expect(crossings).toEqual([])
  })
})

describe('server areas', () => {
  const server = 'apps/server/src'
  // The platform every area builds on.
  const sharedAreas = new Set([
    'config',
    'http',
    'stream',
    'auth',
    'sealing',
    'mail',
    'audit',
    'settings',
    'cluster',
  ])
  // What an area offers the others: its service, its routes for app.ts, middleware, its runtime.
  const isPublicFile = (file: string) =>
    /\/(service|routes|require-[\w-]+|[\w-]+-runtime)\.ts$/.test(file)
  const areaOf = (file: string) => file.slice(server.length + 1).split('/')[0]

  it('reach each other only through their public files', () => {
    const crossings = sourceFiles(server).flatMap((file) => {
      // The composition root wires every area together.
      if (isTestCode(file) || !file.slice(server.length + 1).includes('/')) return []
      return importsOf(file)
        .filter((target) => {
          if (!target.startsWith(`${server}/`)) return false
          // The composition root's own files (app.ts, app-env.ts) are everyone's.
          if (!target.slice(server.length + 1).includes('/')) return false
          const area = areaOf(target) as string
          if (area === areaOf(file) || sharedAreas.has(area)) return false
          return !isPublicFile(target)
        })
        .map((target) => `${file} → ${target}`)
    })
    expect(crossings).toEqual([])
  })
})

describe('file length', () => {
  it('says why in its opening lines when a file runs past 300 lines', () => {
    const folders = ['apps', 'packages', 'scripts', 'bench', 'tests']
    const unexplained = folders.flatMap(sourceFiles).filter((file) => {
      if (file.endsWith('routeTree.gen.ts')) return false
      const lines = readFileSync(path.join(root, file), 'utf8').split('\n')
      return lines.length > 300 && !lines.slice(0, 5).some((line) => line.includes('Long file:'))
    })
    expect(unexplained).toEqual([])
  })
})

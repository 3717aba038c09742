import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

// docs/architecture/overview.md "Areas and layers" is where a newcomer starts: every server area
// (and dev box sub-area), package and web feature must have its row. The folders are read at run
// time, so a new or renamed folder fails here until the map says what it is.

const root = path.resolve(import.meta.dirname, '../..')
const overview = 'docs/architecture/overview.md'
const section = '## Areas and layers'
const advice = `add a row for each to ${overview} "Areas and layers"`
/** Folders that hold no area: test helpers. */
const notAreas = new Set(['testing'])

function foldersUnder(folder: string): string[] {
  const absolute = path.join(root, folder)
  if (!existsSync(absolute)) return []
  return readdirSync(absolute, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !notAreas.has(entry.name))
    .map((entry) => entry.name)
}

/** The names in backquotes in the first cell of the section's table rows, e.g. `devboxes/deploys/`. */
function mappedNames(): Set<string> {
  const text = readFileSync(path.join(root, overview), 'utf8')
  const start = text.indexOf(section)
  expect(start, `${overview} has a "${section.slice(3)}" section`).toBeGreaterThanOrEqual(0)
  const end = text.indexOf('\n## ', start + section.length)
  const rows = text
    .slice(start, end === -1 ? undefined : end)
    .split('\n')
    .filter((line) => line.startsWith('| '))
  const names = rows.flatMap((line) =>
    [...(line.split('|')[1] ?? '').matchAll(/`([\w./-]+?)\/?`/g)].map((match) => match[1]),
  )
  return new Set(names.filter((name) => name !== undefined))
}

describe('the area map in docs/architecture/overview.md', () => {
  const mapped = mappedNames()

  it('has a row for every server area and dev box sub-area', () => {
    const areas = [
      ...foldersUnder('apps/server/src'),
      ...foldersUnder('apps/server/src/devboxes').map((name) => `devboxes/${name}`),
    ]
    expect(areas.length).toBeGreaterThan(10)
    expect(
      areas.filter((area) => !mapped.has(area)),
      advice,
    ).toEqual([])
  })

  it('has a row for every web feature', () => {
    const features = foldersUnder('apps/web/src/features').map((name) => `features/${name}`)
    expect(features.length).toBeGreaterThan(5)
    expect(
      features.filter((feature) => !mapped.has(feature)),
      advice,
    ).toEqual([])
  })

  it('has a row for every package', () => {
    const packages = foldersUnder('packages').map((name) => `packages/${name}`)
    expect(packages.length).toBeGreaterThan(2)
    expect(
      packages.filter((name) => !mapped.has(name)),
      advice,
    ).toEqual([])
  })
})

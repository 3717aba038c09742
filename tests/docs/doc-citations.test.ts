import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

// The repository must explain itself: comments cite docs/product/, docs/architecture/ and
// docs/decisions/, never a specification kept outside it.

const root = path.resolve(import.meta.dirname, '../..')
const codeFolders = ['apps', 'packages', 'tests', 'scripts', 'bench']
const skippedFolders = new Set(['node_modules', 'dist', 'test-results', 'playwright-report'])
// Built from parts so that this file does not match itself.
const outsideCitations = [`SPEC ${'§'}`, `DESIGN ${'§'}`]

function filesUnder(folder: string): string[] {
  const absolute = path.join(root, folder)
  if (!existsSync(absolute)) return []
  return readdirSync(absolute, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || skippedFolders.has(entry.name)) return []
    const relative = path.join(folder, entry.name)
    if (entry.isDirectory()) return filesUnder(relative)
    return entry.isFile() ? [relative] : []
  })
}

function readText(relative: string): string | undefined {
  const content = readFileSync(path.join(root, relative))
  return content.includes(0) ? undefined : content.toString('utf8')
}

const sources = [...codeFolders.flatMap(filesUnder), ...filesUnder('docs'), 'README.md'].flatMap(
  (file) => {
    const text = readText(file)
    return text === undefined ? [] : [{ file, text }]
  },
)

/** Headings of a Markdown page, without their `#`s. */
function headingsOf(page: string): Set<string> {
  const text = readFileSync(path.join(root, page), 'utf8')
  return new Set(
    text
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) => line.replace(/^#+ /, '').trim()),
  )
}

describe('documentation citations', () => {
  it('cites no specification from outside the repository', () => {
    const found = sources.flatMap(({ file, text }) =>
      text
        .split('\n')
        .flatMap((line, index) =>
          outsideCitations.some((citation) => line.includes(citation))
            ? [`${file}:${index + 1}: ${line.trim()}`]
            : [],
        ),
    )
    expect(found, 'cite docs/product/, docs/architecture/ or docs/decisions/ instead').toEqual([])
  })

  it('cites only pages and sections that exist', () => {
    const citation = /docs\/(?:product|architecture|decisions)\/[\w.-]+\.md(?: "([^"\n]+)")?/g
    const missing: string[] = []
    for (const { file, text } of sources) {
      for (const match of text.matchAll(citation)) {
        const page = match[0].replace(/ ".*$/, '')
        if (!existsSync(path.join(root, page))) {
          missing.push(`${file}: ${page}`)
        } else if (page.startsWith('docs/product/') && match[1]) {
          // Only product pages are cited by section; the section must be one of its headings.
          if (!headingsOf(page).has(match[1])) missing.push(`${file}: ${page} "${match[1]}"`)
        }
      }
    }
    expect(missing).toEqual([])
  })

  it('links only to documentation pages and sections that exist', () => {
    const link = /\]\((?!https?:|#|mailto:)([^)\s#]+)(?:#[^)]*)?\)(?: "([^"\n]+)")?/g
    const broken: string[] = []
    for (const { file, text } of sources.filter((source) => source.file.endsWith('.md'))) {
      for (const [, target = '', section] of text.matchAll(link)) {
        const page = path.relative(root, path.resolve(root, path.dirname(file), target))
        if (!existsSync(path.join(root, page))) broken.push(`${file}: ${target}`)
        else if (section && page.startsWith('docs/product/') && !headingsOf(page).has(section))
          broken.push(`${file}: ${target} "${section}"`)
      }
    }
    expect(broken).toEqual([])
  })
})

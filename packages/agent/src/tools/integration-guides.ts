import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'

/** docs/product/integration-guides/{preset}.md: one guide per integration preset. */
export const integrationGuidesDir = path.resolve(
  import.meta.dirname,
  '../../../../docs/product/integration-guides',
)

const compact = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '')

/** The guide's name (its preset) for what the model calls the integration, e.g. 'Google Sheets'. */
export async function findGuideName(
  integration: string,
  dir = integrationGuidesDir,
): Promise<string | undefined> {
  const names = (await readdir(dir))
    .filter((file) => file.endsWith('.md'))
    .map((file) => file.slice(0, -3))
  const wanted = compact(integration)
  if (!wanted) return undefined
  return (
    names.find((name) => compact(name) === wanted) ??
    // 'sheets' → google-sheets, 'hubspot crm' → hubspot.
    names.find((name) => compact(name).includes(wanted) || wanted.includes(compact(name)))
  )
}

export async function listGuideNames(dir = integrationGuidesDir): Promise<string[]> {
  return (await readdir(dir))
    .filter((file) => file.endsWith('.md'))
    .map((file) => file.slice(0, -3))
    .sort()
}

/** The guide as the agent reads it: its page without the lines meant for maintainers. */
export async function readGuide(name: string, dir = integrationGuidesDir): Promise<string> {
  return guideForAgent(await readFile(path.join(dir, `${name}.md`), 'utf8'))
}

/**
 * A guide page holds notes for its maintainers in front matter and HTML comments, and links to
 * other pages of these docs (docs/product/tool-calls.md "Agent tool-call displays"); none of it means
 * anything to the agent or the user it answers, so those go and a docs link keeps only its text.
 */
export function guideForAgent(page: string): string {
  return page
    .replace(/^\uFEFF?---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/, '')
    .replace(/^[ \t]*<!--[\s\S]*?-->[ \t]*(?:\r?\n|$)/gm, '')
    .replace(/[ \t]*<!--[\s\S]*?-->/g, '')
    .replace(/\[([^\]\n]+)\]\((?!https?:\/\/)[^)\s]*\.md(?:#[^)\s]*)?\)/g, '$1')
    .replace(/\n{3,}/g, '\n\n')
    .trimStart()
}

const stopWords = new Set(
  'the a an and or of to in on for with from how do does i my me we our can is are what which when use using app api call calls get set it this that be by as at'.split(
    ' ',
  ),
)

const wordsOf = (text: string) =>
  (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter(
    (word) => word.length > 2 && !stopWords.has(word),
  )

/**
 * The part of a guide that answers a question: its title and introduction, the section on
 * calling the API from server/ (always needed), and the one or two sections whose words match
 * the question best; the whole guide when no section matches.
 */
export function answerFromGuide(guide: string, question: string): string {
  const [intro = '', ...sections] = guide.split(/^(?=## )/m)
  // A crude stem: 'paginate' meets 'pagination', 'limits' meets 'limit'.
  const words = wordsOf(question).map((word) => word.slice(0, 5))
  const scored = sections.map((section, index) => {
    const heading = section.slice(0, section.indexOf('\n')).toLowerCase()
    const body = section.toLowerCase()
    const score = words.reduce(
      (total, word) => total + (heading.includes(word) ? 3 : 0) + (body.includes(word) ? 1 : 0),
      0,
    )
    return { section, index, score }
  })
  const best = scored.filter((entry) => entry.index > 0).sort((a, b) => b.score - a.score)
  const top = best[0]?.score ?? 0
  // Matching only the words every section shares says nothing: the whole guide then.
  if (top < 3) return guide.trim()
  const chosen = [scored[0], ...best.filter((entry) => entry.score * 2 >= top).slice(0, 2)]
    .filter((entry) => entry !== undefined)
    .sort((a, b) => a.index - b.index)
  return [intro, ...chosen.map((entry) => entry.section)].join('').trim()
}

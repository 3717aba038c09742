import { cutText } from '@sprout/protocol/text/cut-text.ts'

/** What the Demo model builds: a small React + Tailwind page shaped by the words of the prompt. */
export type DemoAppPlan = { title: string; features: string[]; prompt: string }

const stopWords = new Set(
  (
    'a an the and or but with without that which where who for from into onto about this these ' +
    'those some any each every please build create make design develop generate write want need ' +
    'would like could should have has had will can just simple small little nice cool basic app ' +
    'application website site web page using use user users also very really me my our your their ' +
    'them it its is are be been being to of in on at by as so than then there here what when how'
  ).split(' '),
)
const genericTail = /\s+(?:web\s+)?(?:app|application|website|site|page)$/i
const buildVerb =
  /\b(?:build|create|make|design|develop|generate|write)\s+(?:me\s+|us\s+)?(?:(?:an?|the|my|our|one)\s+)?([^.,!?;:\n]+)/i
const featureIntro =
  /\b(?:with|that has|which has|including|featuring|where (?:i|you|users) can)\s+(.+)/i

function titleCase(words: string): string {
  return words
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ')
}

function clean(text: string): string {
  return text
    .replace(/[^\p{L}\p{N}\s'&+-]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

function limitWords(text: string, count: number): string {
  return text.split(' ').slice(0, count).join(' ')
}

function titleFrom(prompt: string): string {
  const subject = buildVerb
    .exec(prompt)?.[1]
    ?.split(/\s+(?:with|that|which|where|for|to|so|using)\b/i)[0]
  const candidate = clean(subject ?? '').replace(genericTail, '')
  if (candidate && !stopWords.has(candidate.toLowerCase())) {
    return titleCase(limitWords(candidate, 5))
  }
  const keywords = clean(prompt)
    .split(' ')
    .filter((word) => word.length > 2 && !stopWords.has(word.toLowerCase()))
  return keywords.length > 0 ? titleCase(limitWords(keywords.join(' '), 3)) : 'My App'
}

function featuresFrom(prompt: string, title: string): string[] {
  const introduced = featureIntro.exec(prompt)?.[1]
  if (introduced) {
    const phrases = introduced
      .split(/,|;|\band\b|\bplus\b|\./i)
      .map((phrase) => clean(phrase).replace(/^(?:an?|the|some)\s+/i, ''))
      .filter((phrase) => phrase.length > 1)
      .map((phrase) => titleCase(limitWords(phrase, 5)))
    if (phrases.length > 0) return [...new Set(phrases)].slice(0, 4)
  }
  const titleWords = new Set(title.toLowerCase().split(' '))
  const keywords = clean(prompt)
    .toLowerCase()
    .split(' ')
    .filter((word) => word.length > 3 && !stopWords.has(word) && !titleWords.has(word))
  const unique = [...new Set(keywords)].slice(0, 3).map(titleCase)
  return unique.length > 0 ? unique : ['Quick Start', 'Clean Layout', 'Ready To Extend']
}

export function planDemoApp(prompt: string): DemoAppPlan {
  const trimmed = cutText(prompt.trim(), 400)
  const title = titleFrom(trimmed)
  return { title, features: featuresFrom(trimmed, title), prompt: trimmed }
}

/**
 * The TSX source of src/App.tsx (the template's main.tsx imports the named export `App`). Every
 * prompt-derived string goes through JSON.stringify, so it can only ever be a string literal.
 */
export function renderDemoApp(plan: DemoAppPlan): string {
  const features = plan.features.map((feature) => `  ${JSON.stringify(feature)},`).join('\n')
  return `import { type FormEvent, useState } from 'react'

const title = ${JSON.stringify(plan.title)}
const description = ${JSON.stringify(plan.prompt)}
const features = [
${features}
]

export function App() {
  const [items, setItems] = useState<string[]>([])
  const [draft, setDraft] = useState('')

  function addItem(event: FormEvent) {
    event.preventDefault()
    const text = draft.trim()
    if (!text) return
    setItems((current) => [...current, text])
    setDraft('')
  }

  return (
    <main className="mx-auto flex min-h-screen max-w-4xl flex-col gap-10 px-6 py-16">
      <header className="flex flex-col gap-4">
        <span className="w-fit rounded-full bg-emerald-100 px-3 py-1 text-sm font-medium text-emerald-800 dark:bg-emerald-900/40 dark:text-emerald-300">
          Built by the Sprout demo
        </span>
        <h1 className="text-4xl font-semibold tracking-tight sm:text-5xl">{title}</h1>
        <p className="max-w-2xl text-lg text-stone-600 dark:text-stone-400">{description}</p>
      </header>

      <section className="grid gap-4 sm:grid-cols-2">
        {features.map((feature) => (
          <article
            key={feature}
            className="rounded-xl border border-stone-200 bg-white p-5 shadow-sm dark:border-stone-800 dark:bg-stone-900"
          >
            <h2 className="font-semibold">{feature}</h2>
            <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
              Ready to build out in src/App.tsx.
            </p>
          </article>
        ))}
      </section>

      <section className="flex flex-col gap-4">
        <form onSubmit={addItem} className="flex gap-2">
          <label htmlFor="new-item" className="sr-only">
            New item
          </label>
          <input
            id="new-item"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            placeholder="Add an item..."
            className="flex-1 rounded-lg border border-stone-300 bg-white px-3 py-2 dark:border-stone-700 dark:bg-stone-900"
          />
          <button
            type="submit"
            className="rounded-lg bg-emerald-600 px-4 py-2 font-medium text-white shadow-sm transition hover:bg-emerald-500"
          >
            Add
          </button>
        </form>
        <ul className="flex flex-col gap-2">
          {items.map((item, index) => (
            <li
              key={\`\${index}-\${item}\`}
              className="rounded-lg border border-stone-200 bg-white px-4 py-2 dark:border-stone-800 dark:bg-stone-900"
            >
              {item}
            </li>
          ))}
        </ul>
      </section>
    </main>
  )
}
`
}

import { z } from 'zod'

// Elements the user points at in the builder's preview (docs/product/builder.md "Select mode"):
// where the starters' Vite plugin says each comes from, and a short piece of it. A message carries
// them to the agent as text after the user's own.

export const SELECTIONS_PER_MESSAGE = 4
/** The element's HTML (or text) is cut to this many characters. */
export const SELECTION_SNIPPET_MAX = 300
export const SELECTION_FILE_MAX = 300
/** The attribute the starters' plugin adds in the dev server only: `src/App.tsx:14:7`. */
export const SOURCE_ATTRIBUTE = 'data-sprout-source'

/** A relative path inside the app: no leading slash, backslash, `..` or `.` part, NUL or control. */
const relativeFile = z
  .string()
  .min(1, 'must not be empty')
  .max(SELECTION_FILE_MAX, `must be at most ${SELECTION_FILE_MAX} characters`)
  .refine(
    (file) =>
      // biome-ignore lint/suspicious/noControlCharactersInRegex: refused on purpose
      !/[\u0000-\u001f\u007f\\]/.test(file) &&
      !file.startsWith('/') &&
      file.split('/').every((part) => part !== '' && part !== '.' && part !== '..'),
    'must be a relative path inside the app',
  )

export const previewSelectionSchema = z.object({
  file: relativeFile,
  line: z.number().int().min(1).max(1_000_000),
  column: z.number().int().min(1).max(100_000).optional(),
  /** The host element's tag name, lowercase: `button`, `li`, `my-widget`. */
  tag: z
    .string()
    .max(64, 'must be at most 64 characters')
    .regex(/^[a-z][a-z0-9-]*$/, 'must be a lowercase HTML tag name'),
  snippet: z
    .string()
    .max(SELECTION_SNIPPET_MAX, `must be at most ${SELECTION_SNIPPET_MAX} characters`),
})
export type PreviewSelection = z.infer<typeof previewSelectionSchema>

export const messageSelectionsSchema = z
  .array(previewSelectionSchema)
  .max(SELECTIONS_PER_MESSAGE, `must list at most ${SELECTIONS_PER_MESSAGE} selections`)
  .optional()

/** `src/components/GuestList.tsx:14` */
export const selectionLocation = (selection: Pick<PreviewSelection, 'file' | 'line'>) =>
  `${selection.file}:${selection.line}`

/** `data-sprout-source`'s value, `src/App.tsx:14:7`, read; undefined when it is not one. */
export function readSourceAttribute(
  value: string,
): Pick<PreviewSelection, 'file' | 'line' | 'column'> | undefined {
  const match = /^(.+):(\d+):(\d+)$/.exec(value)
  if (!match) return undefined
  const [, file = '', line = '', column = ''] = match
  const location = { file, line: Number(line), column: Number(column) }
  const parsed = previewSelectionSchema
    .pick({ file: true, line: true, column: true })
    .safeParse(location)
  return parsed.success ? parsed.data : undefined
}

const introduction = 'The user selected in the preview:'

/** One line per selection; its pattern is what the Demo model reads back (readSelectionsText). */
const selectionLine = (selection: PreviewSelection) => {
  const snippet = selection.snippet.replace(/\s+/g, ' ').trim()
  return `- <${selection.tag}> at ${selectionLocation(selection)}${snippet ? ` — ${snippet}` : ''}`
}

/** What the agent gets after the user's text: where each element comes from and a piece of it. */
export function selectionsText(selections: readonly PreviewSelection[]): string {
  if (selections.length === 0) return ''
  return `\n\n${introduction}\n${selections.map(selectionLine).join('\n')}`
}

/** The selections named in a user message's text (the Demo model's reading of it). */
export function readSelectionsText(
  text: string,
): Pick<PreviewSelection, 'tag' | 'file' | 'line'>[] {
  const start = text.lastIndexOf(`\n${introduction}\n`)
  if (start < 0) return []
  return text
    .slice(start)
    .split('\n')
    .flatMap((line) => {
      const match = /^- <([a-z][a-z0-9-]*)> at (\S+):(\d+)(?: — |$)/.exec(line)
      return match ? [{ tag: match[1] ?? '', file: match[2] ?? '', line: Number(match[3]) }] : []
    })
}

import { readSelectionsText } from '@sprout/protocol/api/preview-selections.ts'

/**
 * What the Demo model answers to elements pointed at in the preview, read from the text the
 * server adds after the user's (docs/product/builder.md "Select mode"): 'You pointed at the
 * <button> in src/App.tsx:14.'; undefined for a message without any.
 */
export function describeSelections(userText: string): string | undefined {
  const selections = readSelectionsText(userText)
  if (selections.length === 0) return undefined
  const items = selections.map(
    (selection) => `the <${selection.tag}> in ${selection.file}:${selection.line}`,
  )
  const list =
    items.length === 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
  return `You pointed at ${list}.`
}

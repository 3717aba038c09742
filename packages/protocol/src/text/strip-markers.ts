/**
 * Written into the conversation when the user interrupts a run (docs/product/builder.md "Message
 * rendering").
 */
export const USER_INTERRUPTED_MARKER = '[Request interrupted by user]'

/** Wraps the summary that replaces compacted history; shown as COMPACTION_NOTE_TEXT. */
export const COMPACTION_NOTE_TAG = 'compacted-history'
export const COMPACTION_NOTE_TEXT = 'Compacting conversation...'

// An unterminated block is hidden to the end of the text: it may still be streaming.
const hiddenBlockPatterns = [
  /<system-reminder(?:\s[^>]*)?>[\s\S]*?(?:<\/system-reminder>|$)/gi,
  /<reminder(?:\s[^>]*)?>[\s\S]*?(?:<\/reminder>|$)/gi,
]
// Also matches variants such as '[Request interrupted by user for tool use]'.
const interruptedMarkerPattern = /\[Request interrupted by user[^\]\n]*\]/g

/** Removes system-reminder, reminder and interrupt-marker blocks; the rest, trimmed. */
export function stripMarkers(text: string): string {
  let stripped = text
  for (const pattern of hiddenBlockPatterns) stripped = stripped.replace(pattern, '')
  stripped = stripped.replace(interruptedMarkerPattern, '')
  if (stripped.length !== text.length)
    stripped = stripped.replace(/\n[ \t]*(?:\n[ \t]*){2,}/g, '\n\n')
  return stripped.trim()
}

export function formatCompactionNote(summary: string): string {
  return `<${COMPACTION_NOTE_TAG}>\n${summary}\n</${COMPACTION_NOTE_TAG}>`
}

export function isCompactionNote(text: string): boolean {
  return text.trimStart().startsWith(`<${COMPACTION_NOTE_TAG}`)
}

/** What a message's text renders as: nothing, the compaction line, or light-markdown text. */
export type MessageText =
  | { kind: 'hidden' }
  | { kind: 'compaction' }
  | { kind: 'text'; text: string }

export function prepareMessageText(text: string): MessageText {
  if (isCompactionNote(text)) return { kind: 'compaction' }
  const stripped = stripMarkers(text)
  return stripped === '' ? { kind: 'hidden' } : { kind: 'text', text: stripped }
}

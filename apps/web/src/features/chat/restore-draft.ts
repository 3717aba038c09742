/**
 * Puts text handed back by the chat (a queued or unsent message) into the input: first, so it
 * reads in the order it was written, with whatever the user has typed since kept after it.
 */
export function appendRestored(draft: string, restored: string): string {
  if (restored.trim() === '') return draft
  return draft.trim() === '' ? restored : `${restored}\n\n${draft}`
}

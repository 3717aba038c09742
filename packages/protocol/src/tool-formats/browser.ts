import { z } from 'zod'

// The browser tool's output (docs/product/tool-calls.md "browser"): what the chat shows and what
// the model reads as text. The screenshot is a chat image of the conversation, named by id.

export const browserScreenshotSchema = z.object({
  /** GET /api/images/{id}; absent when it could not be kept (the model may still have seen it). */
  id: z.string().optional(),
  media_type: z.enum(['image/png', 'image/jpeg']),
  width: z.number(),
  height: z.number(),
  size: z.number(),
})

export const browserToolOutputSchema = z.object({
  url: z.string(),
  title: z.string(),
  status: z.number().optional(),
  actions_done: z.number(),
  action_error: z.string().optional(),
  snapshot: z.string(),
  console_errors: z.array(z.string()),
  failed_requests: z.array(z.string()),
  blocked: z.array(z.string()),
  screenshot: browserScreenshotSchema.optional(),
  duration_ms: z.number(),
})
export type BrowserToolOutput = z.infer<typeof browserToolOutputSchema>

export function parseBrowserToolOutput(output: unknown): BrowserToolOutput | undefined {
  const parsed = browserToolOutputSchema.safeParse(output)
  return parsed.success ? parsed.data : undefined
}

const listText = (title: string, entries: string[]) =>
  entries.length === 0
    ? `${title}: none`
    : `${title}:\n${entries.map((each) => `- ${each}`).join('\n')}`

/** What the model reads of a call: the page, what failed, and its snapshot. */
export function formatBrowserOutput(output: BrowserToolOutput): string {
  const lines = [
    `Page: ${output.url}${output.title ? ` — "${output.title}"` : ''}${output.status ? ` (HTTP ${output.status})` : ''}`,
  ]
  if (output.action_error) lines.push(`Action failed: ${output.action_error}`)
  lines.push(listText('Console errors', output.console_errors))
  lines.push(listText('Failed requests', output.failed_requests))
  if (output.blocked.length > 0) {
    lines.push(listText('Blocked (not the app’s dev server)', output.blocked))
  }
  lines.push(`Accessibility snapshot:\n${output.snapshot || '(empty page)'}`)
  return lines.join('\n')
}

/** The call's one-line summary: `Browser: /notes (2 actions)`. */
export function summarizeBrowserCall(input: unknown): string {
  const record =
    typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {}
  const path = typeof record.path === 'string' ? record.path : '/'
  const count = Array.isArray(record.actions) ? record.actions.length : 0
  return `Browser: ${path}${count > 0 ? ` (${count} action${count === 1 ? '' : 's'})` : ''}`
}

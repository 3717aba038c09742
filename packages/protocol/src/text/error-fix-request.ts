import { appStackLines, pagePath } from './app-stack.ts'

/**
 * The message the builder's error list sends to the agent (docs/product/error-monitoring.md
 * "Builder error list"): what the agent needs to find each error — message, type, stack, when it
 * was last seen and where — with the group id for error_reports_update.
 */
export type ErrorFixRequestGroup = {
  id: string
  error_type: string
  representative_message: string
  representative_stack: string[]
  last_seen_at: string
  last_url: string | null
}

/** The app's own frames sent per error: the bubble stays a few lines tall. */
const STACK_LINES_SENT = 5

export function formatErrorFixRequest(groups: ErrorFixRequestGroup[]): string {
  const heading =
    groups.length === 1
      ? 'Please fix this error in the app:'
      : `Please fix these ${groups.length} errors in the app:`
  const blocks = groups.map((group) =>
    [
      `Error: ${group.representative_message || group.error_type}`,
      `Type: ${group.error_type}`,
      `Group: ${group.id}`,
      `Last seen: ${group.last_seen_at}`,
      `Page: ${pagePath(group.last_url)}`,
      ...stackLines(group.representative_stack),
    ].join('\n'),
  )
  return [heading, ...blocks].join('\n\n')
}

function stackLines(stack: readonly string[]): string[] {
  const lines = appStackLines(stack, STACK_LINES_SENT)
  return lines.length > 0 ? ['Stack:', ...lines.map((line) => `  ${line}`)] : []
}

/** Whether a user message asks to fix the app's errors (the error list's message, or typed). */
export function isErrorFixRequest(text: string): boolean {
  return /^\s*(?:please\s+)?fix\b|\bfix (?:the|this|these|my|all) (?:\w+ )?errors?\b/i.test(text)
}

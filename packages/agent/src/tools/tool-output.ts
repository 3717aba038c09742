import { cutText } from '@sprout/protocol/text/cut-text.ts'
import type { ToolContext } from './tool-context.ts'

/** Characters of tool output the model sees; more would crowd out the conversation. */
export const TOOL_OUTPUT_LIMIT = 30_000

/** Cuts text to the limit and says so, keeping the start (files) or the end (command output). */
export function capToolOutput(
  text: string,
  options: { limit?: number; keep?: 'start' | 'end' } = {},
): string {
  const limit = options.limit ?? TOOL_OUTPUT_LIMIT
  if (text.length <= limit) return text
  const kept = cutText(text, limit, options.keep)
  const omitted = text.length - kept.length
  if (options.keep === 'end') {
    return `[output cut: the first ${omitted} characters were omitted]\n${kept}`
  }
  return `${kept}\n[output cut: ${omitted} more characters were omitted]`
}

/** A tool failure whose message is meant for the model and the user. */
export class ToolError extends Error {
  override name = 'ToolError'

  // The AI SDK turns a tool's error into text with toString(): the message alone, never
  // 'ToolError: …', is what the model and the chat see.
  override toString(): string {
    return this.message
  }
}

type SystemError = Error & { code?: string }

function describeError(error: unknown, target: string | undefined): string {
  if (error instanceof ToolError) return error.message
  if (error instanceof Error && error.name === 'WorkspacePathError') return error.message
  const code = (error as SystemError | undefined)?.code
  const subject = target ?? 'the path'
  if (code === 'ENOENT') return `Not found: ${subject}`
  if (code === 'EISDIR') return `${subject} is a directory, not a file`
  if (code === 'ENOTDIR') return `${subject} is not a directory`
  if (code === 'EACCES' || code === 'EPERM') return `Permission denied: ${subject}`
  if (error instanceof Error) return error.message
  return String(error)
}

/**
 * Runs a tool's work so that the loop never crashes: output is redacted and capped, and any
 * failure becomes a ToolError the SDK reports to the model as an error result.
 */
export async function runTool(
  context: ToolContext,
  work: () => Promise<string>,
  options: { target?: string; keep?: 'start' | 'end' } = {},
): Promise<string> {
  const redact = context.redact ?? ((text: string) => text)
  let output: string
  try {
    output = await work()
  } catch (error) {
    throw new ToolError(capToolOutput(redact(describeError(error, options.target))))
  }
  return capToolOutput(redact(output), { keep: options.keep })
}

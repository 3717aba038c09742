import type { DemoConversation } from './demo-conversation.ts'

export type DemoToolCall = { toolName: string; input: Record<string, unknown> }

/** One model turn of the Demo model: optional reasoning, text and tool calls. */
export type DemoStep = { reasoning?: string; text?: string; toolCalls: DemoToolCall[] }

/** The first failed tool ends a script with its error, since a script cannot work around one. */
export function failedToolStep(conversation: DemoConversation): DemoStep | undefined {
  const failed = conversation.outcomes.find((outcome) => outcome.isError)
  if (!failed) return undefined
  return {
    text:
      `The ${failed.toolName} step failed: ${failed.text}\n\n` +
      'As a scripted demo I cannot work around that. Configure a real model to keep going.',
    toolCalls: [],
  }
}

/** The step of a fixed script that comes next: one step per tool result so far, then `done`. */
export function nextScriptStep(
  script: DemoStep[],
  conversation: DemoConversation,
  tools: Set<string>,
  done: string,
): DemoStep {
  const failed = failedToolStep(conversation)
  if (failed) return failed
  // Steps whose tools this run does not offer (e.g. server_logs) are skipped.
  const remaining = script
    .filter((step) => step.toolCalls.every((call) => tools.has(call.toolName)))
    .slice(conversation.outcomes.length)
  return remaining[0] ?? { text: done, toolCalls: [] }
}

/** A step that writes one file of the app, with a line saying what it is. */
export function writeFileStep(text: string, path: string, content: string): DemoStep {
  return { text, toolCalls: [{ toolName: 'write_file', input: { path, content } }] }
}

/** A scripted app: its steps, then the closing text. */
export type DemoScript = { steps: DemoStep[]; done: string }

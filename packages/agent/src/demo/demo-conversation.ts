import type {
  LanguageModelV4Message,
  LanguageModelV4Prompt,
  LanguageModelV4ToolResultOutput,
} from '@ai-sdk/provider'
import type { ImageFacts } from '@sprout/protocol/images/read-image-facts.ts'
import { USER_INTERRUPTED_MARKER } from '@sprout/protocol/text/strip-markers.ts'
import { imagesOf } from './demo-images.ts'

export type DemoToolOutcome = { toolName: string; text: string; isError: boolean }

/**
 * What the Demo model looks at: the last user message and the tool results that followed it, and
 * the turn before it when that one was left unfinished (interrupted, or cut into by a queued
 * message), so a follow-up it has no script for can carry on with that turn's script.
 */
export type DemoConversation = {
  userText: string
  outcomes: DemoToolOutcome[]
  unfinished?: DemoConversation
  /** What changed outside the agent since its last run: the system prompt's notes. */
  runNotes?: string[]
  /** The images sent with the user message (docs/product/images.md). */
  images?: ImageFacts[]
}

/** The system prompt's '## Since your last run' list (docs/product/versions.md "Code"). */
function runNotesOf(system: string): string[] {
  const section = system.split('\n## Since your last run\n')[1]
  if (!section) return []
  return section
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .map((line) => line.slice(2).trim())
}

function outputText(output: LanguageModelV4ToolResultOutput): { text: string; isError: boolean } {
  switch (output.type) {
    case 'text':
      return { text: output.value, isError: false }
    case 'error-text':
      return { text: output.value, isError: true }
    case 'json':
      return { text: JSON.stringify(output.value), isError: false }
    case 'error-json':
      return { text: JSON.stringify(output.value), isError: true }
    case 'execution-denied':
      return { text: output.reason ?? 'The tool call was denied.', isError: true }
    case 'content':
      return {
        text: output.value.map((part) => (part.type === 'text' ? part.text : '')).join(''),
        isError: false,
      }
  }
}

const textOf = (message: LanguageModelV4Message): string =>
  typeof message.content === 'string'
    ? message.content
    : message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n')

/**
 * A turn is finished when the model answered last without calling a tool: its closing text. One
 * that ends in tool results, in the interrupted marker or with no answer at all is not.
 */
function isFinished(turn: LanguageModelV4Message[]): boolean {
  const last = turn.at(-1)
  if (last?.role !== 'assistant') return false
  if (last.content.some((part) => part.type === 'tool-call')) return false
  return !textOf(last).includes(USER_INTERRUPTED_MARKER)
}

function readTurn(
  user: LanguageModelV4Message,
  after: LanguageModelV4Message[],
  unfinished: DemoConversation | undefined,
): DemoConversation {
  const outcomes: DemoToolOutcome[] = []
  for (const message of after) {
    if (message.role !== 'tool') continue
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue
      outcomes.push({ toolName: part.toolName, ...outputText(part.output) })
    }
  }
  const images = imagesOf(user)
  return {
    userText: textOf(user),
    outcomes,
    ...(unfinished ? { unfinished } : {}),
    ...(images.length > 0 ? { images } : {}),
  }
}

export function readDemoConversation(prompt: LanguageModelV4Prompt): DemoConversation {
  let conversation: DemoConversation | undefined
  let user: LanguageModelV4Message | undefined
  let after: LanguageModelV4Message[] = []
  let runNotes: string[] = []
  for (const message of prompt) {
    if (message.role === 'system') {
      runNotes = [...runNotes, ...runNotesOf(message.content)]
      continue
    }
    if (message.role !== 'user') {
      after.push(message)
      continue
    }
    if (user) {
      const turn = readTurn(user, after, conversation)
      conversation = isFinished(after) ? undefined : turn
    }
    user = message
    after = []
  }
  if (!user) return { userText: '', outcomes: [] }
  const turn = readTurn(user, after, conversation)
  return runNotes.length > 0 ? { ...turn, runNotes } : turn
}

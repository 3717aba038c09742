import { cutText } from '@sprout/protocol/text/cut-text.ts'
import { formatCompactionNote } from '@sprout/protocol/text/strip-markers.ts'
import { generateText, type LanguageModel, type ModelMessage } from 'ai'

/**
 * Past this share of the context window, older history is summarised
 * (docs/architecture/agent-loop.md).
 */
export const COMPACTION_THRESHOLD = 0.85
/** The most recent messages stay word for word; everything before them is summarised. */
const KEEP_RECENT_MESSAGES = 6
const TRANSCRIPT_PART_LIMIT = 1_500

const compactionInstructions = `You summarise the earlier part of a conversation between a user and an AI agent that builds a web app with tools. The summary replaces that part of the conversation, so the agent must be able to continue from it alone.

Write a concise summary with:
- what the user asked for, including every requirement and preference they stated;
- what has been built so far: files created or changed and what they contain, commands run and their outcome;
- decisions made and why;
- open tasks, known errors and anything left unfinished.
Keep file paths, names and exact error messages. Do not invent anything.`

function clip(text: string): string {
  return text.length <= TRANSCRIPT_PART_LIMIT
    ? text
    : `${cutText(text, TRANSCRIPT_PART_LIMIT)} [... ${text.length - TRANSCRIPT_PART_LIMIT} characters cut]`
}

function renderOutput(output: unknown): string {
  const value = (output as { value?: unknown } | undefined)?.value ?? output
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/** Plain text of messages, so any provider can summarise tool calls it never had tools for. */
export function renderTranscript(messages: ModelMessage[]): string {
  const lines: string[] = []
  for (const message of messages) {
    if (typeof message.content === 'string') {
      lines.push(`${message.role.toUpperCase()}: ${clip(message.content)}`)
      continue
    }
    for (const part of message.content) {
      switch (part.type) {
        case 'text':
          lines.push(`${message.role.toUpperCase()}: ${clip(part.text)}`)
          break
        case 'reasoning':
          lines.push(`ASSISTANT (thinking): ${clip(part.text)}`)
          break
        case 'tool-call':
          lines.push(`TOOL CALL ${part.toolName}: ${clip(JSON.stringify(part.input))}`)
          break
        case 'tool-result':
          lines.push(`TOOL RESULT ${part.toolName}: ${clip(renderOutput(part.output))}`)
          break
        default:
          lines.push(`${message.role.toUpperCase()}: [${part.type}]`)
      }
    }
  }
  return lines.join('\n\n')
}

/** Where the kept tail starts: never on a tool result, whose call would be summarised away. */
function splitIndex(messages: ModelMessage[]): number {
  let index = Math.max(0, messages.length - KEEP_RECENT_MESSAGES)
  while (index < messages.length && messages[index]?.role === 'tool') index += 1
  return index
}

/** Whether there is enough older history to summarise. */
export function canCompactHistory(messages: ModelMessage[]): boolean {
  return splitIndex(messages) >= 2
}

/**
 * Replaces all but the most recent messages with one summary message written by the model.
 * Returns undefined when there is too little history to gain anything.
 */
export async function compactHistory(options: {
  model: LanguageModel
  messages: ModelMessage[]
  abortSignal?: AbortSignal
  maxRetries?: number
}): Promise<ModelMessage[] | undefined> {
  if (!canCompactHistory(options.messages)) return undefined
  const index = splitIndex(options.messages)
  const older = options.messages.slice(0, index)
  const { text } = await generateText({
    model: options.model,
    instructions: compactionInstructions,
    messages: [
      {
        role: 'user',
        content: `Summarise this conversation so far:\n\n${renderTranscript(older)}`,
      },
    ],
    abortSignal: options.abortSignal,
    maxRetries: options.maxRetries,
  })
  // The web client shows a message in this wrapper as the compaction note
  // (docs/product/builder.md).
  const summary: ModelMessage = {
    role: 'user',
    content: formatCompactionNote(`Summary of the earlier conversation:\n\n${text.trim()}`),
  }
  return [summary, ...options.messages.slice(index)]
}

/** What a provider counts an attached image as, at most (Anthropic: width × height / 750). */
const IMAGE_TOKENS = 1_600

/**
 * A rough size of messages before any call has reported usage: four characters a token, and an
 * image's bytes as the tokens a provider counts for it, not as text.
 */
export function estimateTokens(messages: ModelMessage[]): number {
  let images = 0
  const text = JSON.stringify(messages, function (key, value) {
    const holder = this as { type?: unknown }
    const media =
      (key === 'image' && holder.type === 'image') || (key === 'data' && holder.type === 'file')
    if (!media || typeof value === 'string') return value
    images += 1
    return ''
  })
  return Math.ceil(text.length / 4) + images * IMAGE_TOKENS
}

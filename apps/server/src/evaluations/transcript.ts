import type { Database } from '@sprout/db/database.ts'
import { conversationEvents } from '@sprout/db/schema/conversation-events.ts'
import { parseShellExecOutput } from '@sprout/protocol/tool-formats/shell-exec.ts'
import { and, asc, eq, sql } from 'drizzle-orm'

/**
 * A conversation as an evaluator reads it, rebuilt from its stored stream chunks
 * (docs/architecture/stream-protocol.md): the user's and the agent's text, tool calls with their
 * outputs, errors, staged messages, compactions and runs, in order.
 */
export type TranscriptEntry =
  | { kind: 'user'; text: string }
  | { kind: 'assistant'; text: string }
  | { kind: 'tool'; name: string; input: unknown; output: string; failed: boolean }
  | { kind: 'error'; text: string; errorType: string | null }
  | { kind: 'staged'; status: 'sent' | 'unsent'; text: string }
  | { kind: 'compaction' }
  | { kind: 'run'; status: string }

export type Transcript = {
  entries: TranscriptEntry[]
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens: number }
  startedAt: Date | null
  endedAt: Date | null
}

type StoredChunk = { type: string; [field: string]: unknown }

const text = (value: unknown) => (typeof value === 'string' ? value : '')

function outputText(output: unknown): string {
  if (typeof output === 'string') return output
  try {
    return JSON.stringify(output) ?? ''
  } catch {
    return String(output)
  }
}

/** A shell command that exited non-zero, timed out or was interrupted is a failing call. */
function failedOutput(name: string, output: string): boolean {
  if (name !== 'shell_exec') return false
  const parsed = parseShellExecOutput(output)
  return (parsed.exitCode !== undefined && parsed.exitCode !== 0) || parsed.notes.length > 0
}

type TranscriptBuilder = {
  entries: TranscriptEntry[]
  usage: Transcript['usage']
  openText: Map<string, { kind: 'assistant'; text: string }>
  tools: Map<string, Extract<TranscriptEntry, { kind: 'tool' }>>
}

function toolOf(builder: TranscriptBuilder, chunk: StoredChunk) {
  const id = text(chunk.toolCallId)
  let tool = builder.tools.get(id)
  if (!tool) {
    tool = { kind: 'tool', name: text(chunk.toolName), input: undefined, output: '', failed: false }
    builder.tools.set(id, tool)
    builder.entries.push(tool)
  }
  if (chunk.toolName) tool.name = text(chunk.toolName)
  return tool
}

/** The agent's text and tool calls: parts opened, then filled by later chunks. */
function applyPartChunk(builder: TranscriptBuilder, chunk: StoredChunk) {
  switch (chunk.type) {
    case 'text-start': {
      const entry = { kind: 'assistant' as const, text: '' }
      builder.openText.set(text(chunk.id), entry)
      builder.entries.push(entry)
      break
    }
    case 'text-delta': {
      const entry = builder.openText.get(text(chunk.id))
      if (entry) entry.text += text(chunk.delta)
      break
    }
    case 'tool-input-start':
    case 'tool-input-available':
      toolOf(builder, chunk).input = chunk.input
      break
    case 'tool-input-error': {
      const tool = toolOf(builder, chunk)
      tool.input = chunk.input
      tool.output = text(chunk.errorText)
      tool.failed = true
      break
    }
    case 'tool-output-available': {
      if (chunk.preliminary) break
      const tool = toolOf(builder, chunk)
      tool.output = outputText(chunk.output)
      tool.failed = failedOutput(tool.name, tool.output)
      break
    }
    case 'tool-output-error': {
      const tool = toolOf(builder, chunk)
      tool.output = text(chunk.errorText)
      tool.failed = true
      break
    }
  }
}

/** Whole entries: the user's messages, errors, staged messages, compactions, runs and usage. */
function applyChunk(builder: TranscriptBuilder, chunk: StoredChunk) {
  const data = (chunk.data ?? {}) as Record<string, unknown>
  const { entries, usage } = builder
  switch (chunk.type) {
    case 'data-user-message':
      entries.push({ kind: 'user', text: text(data.text) })
      break
    case 'error':
      entries.push({ kind: 'error', text: text(chunk.errorText), errorType: null })
      break
    case 'data-error':
      entries.push({
        kind: 'error',
        text: text(data.error),
        errorType: typeof data.errorType === 'string' ? data.errorType : null,
      })
      break
    case 'data-staged':
      entries.push({
        kind: 'staged',
        status: data.status === 'unsent' ? 'unsent' : 'sent',
        text: text(data.text),
      })
      break
    case 'data-compaction':
      if (data.status === 'done') entries.push({ kind: 'compaction' })
      break
    case 'data-run':
      entries.push({ kind: 'run', status: text(data.status) })
      break
    case 'data-usage':
      // Each usage chunk reports one model step; the conversation's spend is their sum.
      usage.inputTokens += Number(data.inputTokens) || 0
      usage.outputTokens += Number(data.outputTokens) || 0
      usage.cacheReadTokens += Number(data.cacheReadTokens) || 0
      break
    default:
      applyPartChunk(builder, chunk)
  }
}

/** Rebuilds the transcript from chunks in seq order (deltas joined per part). */
export function buildTranscript(rows: { chunk: unknown; createdAt: Date }[]): Transcript {
  const builder: TranscriptBuilder = {
    entries: [],
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0 },
    openText: new Map(),
    tools: new Map(),
  }
  for (const row of rows) applyChunk(builder, row.chunk as StoredChunk)
  return {
    entries: builder.entries.filter(
      (entry) => entry.kind !== 'assistant' || entry.text.trim() !== '',
    ),
    usage: builder.usage,
    startedAt: rows[0]?.createdAt ?? null,
    endedAt: rows.at(-1)?.createdAt ?? null,
  }
}

export async function loadTranscript(db: Database, conversationId: string): Promise<Transcript> {
  const rows = await db
    .select({ chunk: conversationEvents.chunk, createdAt: conversationEvents.createdAt })
    .from(conversationEvents)
    .where(
      and(
        eq(conversationEvents.conversationId, conversationId),
        // The most numerous chunks, of which a transcript keeps nothing.
        sql`${conversationEvents.chunk}->>'type' not in ('reasoning-delta', 'tool-input-delta', 'data-tool-output-delta')`,
      ),
    )
    .orderBy(asc(conversationEvents.seq))
  return buildTranscript(rows)
}

const ENTRY_TEXT_MAX = 4_000

function clip(value: string, max = ENTRY_TEXT_MAX): string {
  return value.length > max
    ? `${value.slice(0, max)}… [${value.length - max} more characters]`
    : value
}

function renderEntry(entry: TranscriptEntry): string {
  switch (entry.kind) {
    case 'user':
      return `USER: ${clip(entry.text)}`
    case 'assistant':
      return `AGENT: ${clip(entry.text)}`
    case 'tool':
      return `TOOL ${entry.name}${entry.failed ? ' (FAILED)' : ''}: ${clip(outputText(entry.input), 1_000)}\n  → ${clip(entry.output, 2_000)}`
    case 'error':
      return `ERROR${entry.errorType ? ` (${entry.errorType})` : ''}: ${clip(entry.text)}`
    case 'staged':
      return `STAGED (${entry.status === 'sent' ? 'taken by the run' : 'handed back'}): ${clip(entry.text)}`
    case 'compaction':
      return 'COMPACTION: the history was compacted'
    case 'run':
      return `RUN ${entry.status}`
  }
}

/**
 * The transcript as text for a judge, within `maxCharacters`: when longer, its head and tail are
 * kept (the request and the outcome) with a note of what was left out between them.
 */
export function renderTranscript(transcript: Transcript, maxCharacters: number): string {
  const lines = transcript.entries.map(renderEntry)
  const whole = lines.join('\n')
  if (whole.length <= maxCharacters) return whole
  const budget = Math.max(0, maxCharacters - 200)
  const head: string[] = []
  const tail: string[] = []
  let used = 0
  let start = 0
  let end = lines.length - 1
  // Alternate: a third of the room for the head, the rest for the tail (where the outcome is).
  while (start <= end) {
    const headLine = lines[start] ?? ''
    if (used + headLine.length + 1 <= budget / 3) {
      head.push(headLine)
      used += headLine.length + 1
      start += 1
      continue
    }
    const tailLine = lines[end] ?? ''
    if (used + tailLine.length + 1 > budget) break
    tail.unshift(tailLine)
    used += tailLine.length + 1
    end -= 1
  }
  const omitted = end - start + 1
  if (omitted <= 0) return whole.slice(0, maxCharacters)
  return [...head, `[… ${omitted} entries left out to fit the model's context …]`, ...tail].join(
    '\n',
  )
}

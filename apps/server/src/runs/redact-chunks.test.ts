import type { KnownStreamChunk, StreamChunk } from '@sprout/protocol/stream/stream-chunk.ts'
import { createSecretRedactor } from '@sprout/protocol/text/redact-secrets.ts'
import { describe, expect, it } from 'vitest'
import { createChunkRedactor } from './redact-chunks.ts'

const secret = 'sk-live-0123456789abcdef'
const redactor = createSecretRedactor({ API_KEY: secret })

/** The text of each part the chunks carry, as the chat would put it together. */
function partTexts(chunks: StreamChunk[]) {
  const texts: Record<string, string> = {}
  for (const chunk of chunks as KnownStreamChunk[]) {
    if (chunk.type === 'text-delta' || chunk.type === 'reasoning-delta') {
      texts[chunk.id] = (texts[chunk.id] ?? '') + chunk.delta
    } else if (chunk.type === 'tool-input-delta') {
      texts[chunk.toolCallId] = (texts[chunk.toolCallId] ?? '') + chunk.inputTextDelta
    }
  }
  return texts
}

describe("a run's chunks, redacted", () => {
  it('catches a value the model splits across deltas of its text, reasoning and tool input', () => {
    const redact = createChunkRedactor(() => redactor)
    const input: StreamChunk[] = [
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: `it is ${secret.slice(0, 5)}` },
      { type: 'reasoning-delta', id: 'r', delta: `${secret.slice(5)}.` },
      { type: 'reasoning-end', id: 'r' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: `The key ${secret.slice(0, 10)}` },
      { type: 'text-delta', id: 't', delta: secret.slice(10) },
      { type: 'text-end', id: 't' },
      { type: 'tool-input-start', toolCallId: 'c', toolName: 'shell_exec' },
      {
        type: 'tool-input-delta',
        toolCallId: 'c',
        inputTextDelta: `{"command":"echo ${secret.slice(0, 3)}`,
      },
      { type: 'tool-input-delta', toolCallId: 'c', inputTextDelta: `${secret.slice(3)}"}` },
      {
        type: 'tool-input-available',
        toolCallId: 'c',
        toolName: 'shell_exec',
        input: { command: `echo ${secret}` },
      },
      // An unfinished part's held text goes out before the step ends.
      { type: 'text-start', id: 'u' },
      { type: 'text-delta', id: 'u', delta: `cut at ${secret.slice(0, 4)}` },
      { type: 'finish-step' },
    ]
    const output = input.flatMap(redact)
    expect(JSON.stringify(output)).not.toContain(secret.slice(0, 5))
    expect(partTexts(output)).toEqual({
      r: 'it is [secret API_KEY].',
      t: 'The key [secret API_KEY]',
      c: '{"command":"echo [secret API_KEY]"}',
      u: 'cut at sk-l',
    })
    expect(output.at(-1)).toEqual({ type: 'finish-step' })
    // The held end of a part comes before the part's end.
    const types = output.map((chunk) => chunk.type)
    expect(types.slice(4, 8)).toEqual(['text-start', 'text-delta', 'text-delta', 'text-end'])
  })
})

import { describe, expect, it } from 'vitest'
import { formatEnvelopeEvent } from './sse-event.ts'
import { createSseParser } from './sse-parser.ts'
import { isKnownStreamChunk, streamChunkSchema } from './stream-chunk.ts'
import { createStreamEnvelope, parseStreamEnvelope } from './stream-envelope.ts'

describe('stream chunks', () => {
  it('accepts the AI SDK chunks and Sprout data chunks', () => {
    const chunks = [
      { type: 'start', messageId: 'm1' },
      { type: 'start-step' },
      { type: 'text-delta', id: '0', delta: 'Hi' },
      {
        type: 'tool-input-available',
        toolCallId: 't1',
        toolName: 'view_file',
        input: { path: 'a' },
      },
      { type: 'tool-output-error', toolCallId: 't1', errorText: 'No such file' },
      { type: 'data-user-message', data: { id: 'u1', text: 'Hello', clientId: 'c1' } },
      { type: 'data-error', data: { error: 'slow down', errorType: 'ratelimited' } },
      { type: 'data-staged', data: { id: 's1', status: 'unsent', text: 'And a footer' } },
      { type: 'data-run', data: { runId: 'r1', status: 'interrupted' } },
      { type: 'finish' },
    ]
    for (const chunk of chunks) {
      const parsed = streamChunkSchema.parse(chunk)
      expect(parsed).toEqual(chunk)
      expect(isKnownStreamChunk(parsed)).toBe(true)
    }
  })

  it('drops fields it does not use', () => {
    expect(
      streamChunkSchema.parse({ type: 'text-start', id: '0', providerMetadata: { a: {} } }),
    ).toEqual({ type: 'text-start', id: '0' })
  })

  it('keeps unknown chunk types whole and rejects malformed known ones', () => {
    const custom = { type: 'custom', kind: 'anthropic.container', value: 1 }
    const parsed = streamChunkSchema.parse(custom)
    expect(parsed).toEqual(custom)
    expect(isKnownStreamChunk(parsed)).toBe(false)
    expect(streamChunkSchema.safeParse({ type: 'text-delta', id: '0' }).success).toBe(false)
    expect(
      streamChunkSchema.safeParse({ type: 'data-run', data: { runId: 'r', status: 'paused' } })
        .success,
    ).toBe(false)
    expect(streamChunkSchema.safeParse({ kind: 'no type' }).success).toBe(false)
  })
})

describe('stream envelopes', () => {
  it('round-trips through an SSE event whose id is the seq', () => {
    const envelope = createStreamEnvelope(42, 'run-1', {
      type: 'text-delta',
      id: '0',
      delta: 'é\n',
    })
    const text = formatEnvelopeEvent(envelope)
    expect(text.startsWith('id: 42\ndata: {')).toBe(true)
    const [event] = createSseParser().feed(text)
    expect(event?.id).toBe('42')
    expect(parseStreamEnvelope(event?.data ?? '')).toEqual(envelope)
  })

  it('returns null for data that is not an envelope', () => {
    expect(parseStreamEnvelope('not json')).toBeNull()
    expect(parseStreamEnvelope('{"seq":-1,"runId":null,"chunk":{"type":"finish"}}')).toBeNull()
    expect(parseStreamEnvelope('{"seq":1,"chunk":{"type":"finish"}}')).toBeNull()
  })
})

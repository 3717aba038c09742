import { applyStreamEnvelope } from '@sprout/protocol/stream/apply-stream-envelope.ts'
import { createBlocksState } from '@sprout/protocol/stream/blocks-state.ts'
import { createSseParser } from '@sprout/protocol/stream/sse-parser.ts'
import type { StreamChunk } from '@sprout/protocol/stream/stream-chunk.ts'
import {
  parseStreamEnvelope,
  type StreamEnvelope,
} from '@sprout/protocol/stream/stream-envelope.ts'
import { describe, expect, it } from 'vitest'
import { createReplayCompactor } from './compact-replay.ts'
import type { EncodedEnvelope } from './encoded-envelope.ts'
import type { StoredEvent } from './event-store.ts'

const deltas = (type: 'text-delta' | 'reasoning-delta', id: string, text: string) =>
  text.split(' ').map((word): StreamChunk => ({ type, id, delta: `${word} ` }))

const run: StreamChunk[] = [
  { type: 'data-user-message', data: { id: 'u1', text: 'Build it' } },
  { type: 'data-run', data: { runId: 'r', status: 'running' } },
  { type: 'start' },
  { type: 'start-step' },
  { type: 'reasoning-start', id: 'r0' },
  ...deltas('reasoning-delta', 'r0', 'I will write the app and then check it'),
  { type: 'reasoning-end', id: 'r0' },
  { type: 'text-start', id: '0' },
  ...deltas('text-delta', '0', 'Writing the app now:'),
  { type: 'text-end', id: '0' },
  { type: 'tool-input-start', toolCallId: 't1', toolName: 'shell_exec' },
  { type: 'tool-input-delta', toolCallId: 't1', inputTextDelta: '{"command":' },
  { type: 'tool-input-delta', toolCallId: 't1', inputTextDelta: '"ls"}' },
  {
    type: 'tool-input-available',
    toolCallId: 't1',
    toolName: 'shell_exec',
    input: { command: 'ls' },
  },
  { type: 'data-tool-output-delta', data: { toolCallId: 't1', delta: 'src\n' } },
  { type: 'data-tool-output-delta', data: { toolCallId: 't1', delta: 'public\n' } },
  { type: 'tool-output-available', toolCallId: 't1', output: 'src\npublic\n[exit code 0]' },
  { type: 'finish-step' },
  {
    type: 'data-usage',
    data: {
      inputTokens: 10,
      cacheReadTokens: 0,
      outputTokens: 5,
      used: 15,
      limit: 100,
      percentage: 15,
    },
  },
  { type: 'start-step' },
  { type: 'text-start', id: '0' },
  ...deltas('text-delta', '0', 'All done, the app is ready.'),
  { type: 'text-end', id: '0' },
  { type: 'finish-step' },
  { type: 'finish', finishReason: 'stop' },
  { type: 'data-run', data: { runId: 'r', status: 'finished' } },
  { type: 'data-staged', data: { id: 's1', status: 'unsent', text: 'Late' } },
]

const stored: StoredEvent[] = run.map((chunk, index) => ({
  seq: index + 1,
  runId: 'r',
  chunkText: JSON.stringify(chunk),
}))

function decode(encoded: EncodedEnvelope[]): StreamEnvelope[] {
  const parser = createSseParser()
  return encoded.flatMap((envelope) =>
    parser.feed(envelope.bytes).map((event) => parseStreamEnvelope(event.data) as StreamEnvelope),
  )
}

const reduce = (envelopes: StreamEnvelope[]) =>
  envelopes.reduce(applyStreamEnvelope, createBlocksState())

describe('the compacted history replay', () => {
  const compactor = createReplayCompactor()
  const encoded: EncodedEnvelope[] = []
  for (const event of stored) compactor.push(event, encoded)
  compactor.flush(encoded)
  const compacted = decode(encoded)
  const full = stored.map((event) => ({
    seq: event.seq,
    runId: event.runId,
    chunk: JSON.parse(event.chunkText) as StreamChunk,
  }))

  it('builds the same chat state from far fewer events', () => {
    const { lastSeq: _compactedSeq, ...fromCompacted } = reduce(compacted)
    const { lastSeq: _fullSeq, ...fromFull } = reduce(full)
    expect(fromCompacted).toEqual(fromFull)
    expect(compacted.length).toBeLessThan(full.length / 2)
  })

  it('sends each finished part as start, one whole delta, end, with increasing stored seqs', () => {
    expect(compacted.map((envelope) => envelope.chunk.type)).toEqual([
      'data-user-message',
      'data-run',
      'start',
      'reasoning-start',
      'reasoning-delta',
      'reasoning-end',
      'text-start',
      'text-delta',
      'text-end',
      'tool-input-start',
      'tool-input-available',
      'data-tool-output-delta',
      'tool-output-available',
      'data-usage',
      'text-start',
      'text-delta',
      'text-end',
      'finish',
      'data-run',
      'data-staged',
    ])
    const seqs = compacted.map((envelope) => envelope.seq)
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b))
    expect(new Set(seqs).size).toBe(seqs.length)
    expect(compacted.at(-1)?.seq).toBe(stored.length)
    expect(compacted[7]?.chunk).toEqual({
      type: 'text-delta',
      id: '0',
      delta: 'Writing the app now: ',
    })
  })

  it('resumes exactly after any seq it sent', () => {
    const cut = compacted[8]?.seq ?? 0
    const resumed = [...compacted.slice(0, 9), ...full.filter((envelope) => envelope.seq > cut)]
    expect(reduce(resumed).blocks).toEqual(reduce(full).blocks)
  })
})

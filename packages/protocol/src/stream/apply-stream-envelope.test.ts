import { describe, expect, it } from 'vitest'
import { applyStreamEnvelope } from './apply-stream-envelope.ts'
import { createBlocksState } from './blocks-state.ts'
import type { StreamEnvelope } from './stream-envelope.ts'

const envelopes: StreamEnvelope[] = [
  { seq: 1, runId: 'r', chunk: { type: 'start' } },
  { seq: 2, runId: 'r', chunk: { type: 'text-start', id: '0' } },
  { seq: 3, runId: 'r', chunk: { type: 'text-delta', id: '0', delta: 'Hi' } },
  { seq: 4, runId: 'r', chunk: { type: 'text-delta', id: '0', delta: ' there' } },
]

describe('applyStreamEnvelope', () => {
  it('applies each seq once, so an overlap after a reconnect doubles nothing', () => {
    const first = envelopes.slice(0, 3).reduce(applyStreamEnvelope, createBlocksState())
    expect(first.lastSeq).toBe(3)
    const resumed = envelopes.slice(1).reduce(applyStreamEnvelope, first)
    expect(resumed.blocks[0]?.content).toBe('Hi there')
    expect(resumed.lastSeq).toBe(4)
    expect(applyStreamEnvelope(resumed, envelopes[2] as StreamEnvelope)).toBe(resumed)
  })

  it('records the seq of chunks the reducer ignores', () => {
    const state = applyStreamEnvelope(createBlocksState(), {
      seq: 9,
      runId: null,
      chunk: { type: 'custom', kind: 'anthropic.x' },
    })
    expect(state.lastSeq).toBe(9)
  })
})

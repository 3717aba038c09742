import { describe, expect, it } from 'vitest'
import { createBlocksState } from './blocks-state.ts'
import { isDeltaChunk, mergeDeltas } from './merge-deltas.ts'
import { reduceBlocks } from './reduce-blocks.ts'
import type { StreamChunk } from './stream-chunk.ts'

const text = (id: string, delta: string): StreamChunk => ({ type: 'text-delta', id, delta })
const output = (toolCallId: string, delta: string): StreamChunk => ({
  type: 'data-tool-output-delta',
  data: { toolCallId, delta },
})

describe('mergeDeltas', () => {
  it('joins deltas of one part, and the reducer sees the same as from the pieces', () => {
    const start: StreamChunk[] = [{ type: 'start' }, { type: 'text-start', id: '0' }]
    const merged = mergeDeltas(text('0', 'Hello, '), text('0', 'world'))
    expect(merged).toEqual(text('0', 'Hello, world'))
    const fromPieces = [...start, text('0', 'Hello, '), text('0', 'world')].reduce(
      reduceBlocks,
      createBlocksState(),
    )
    const fromMerged = [...start, merged as StreamChunk].reduce(reduceBlocks, createBlocksState())
    expect(fromMerged.blocks).toEqual(fromPieces.blocks)
    expect(mergeDeltas(output('t1', 'a'), output('t1', 'b'))).toEqual(output('t1', 'ab'))
  })

  it('keeps different parts and other chunks apart', () => {
    expect(mergeDeltas(text('0', 'a'), text('1', 'b'))).toBeUndefined()
    expect(mergeDeltas(output('t1', 'a'), output('t2', 'b'))).toBeUndefined()
    expect(mergeDeltas({ type: 'finish' }, { type: 'finish' })).toBeUndefined()
    expect(isDeltaChunk(text('0', 'a'))).toBe(true)
    expect(isDeltaChunk({ type: 'text-start', id: '0' })).toBe(false)
  })
})

import { isDeltaChunk, mergeDeltas } from '@sprout/protocol/stream/merge-deltas.ts'
import type { StreamChunk } from '@sprout/protocol/stream/stream-chunk.ts'
import { storableJson } from '@sprout/protocol/text/well-formed.ts'
import { type EncodedEnvelope, encodeEnvelope } from './encoded-envelope.ts'
import type { StoredEvent } from './event-store.ts'

/** Chunks the blocks reducer ignores; a history replay leaves them out. */
const ignoredInReplay: ReadonlySet<string> = new Set([
  'tool-input-delta',
  'start-step',
  'finish-step',
])

type Held = { seq: number; runId: string | null; chunk: StreamChunk }

/**
 * Shrinks a fresh listener's history: consecutive deltas of one part merge and chunks the reducer
 * ignores are dropped. Every envelope keeps a stored seq, in order, so the blocks come out the same
 * and a resume after any of them is exact.
 */
export function createReplayCompactor() {
  let held: Held | undefined

  const release = (into: EncodedEnvelope[]) => {
    if (!held) return
    into.push(encodeEnvelope(held.seq, held.runId, storableJson(held.chunk)))
    held = undefined
  }

  return {
    push: (event: StoredEvent, into: EncodedEnvelope[]) => {
      const chunk = JSON.parse(event.chunkText) as StreamChunk
      if (ignoredInReplay.has(chunk.type)) return
      if (held) {
        const merged = mergeDeltas(held.chunk, chunk)
        if (merged) {
          held = { seq: event.seq, runId: event.runId, chunk: merged }
          return
        }
        release(into)
      }
      if (isDeltaChunk(chunk)) held = { seq: event.seq, runId: event.runId, chunk }
      else into.push(encodeEnvelope(event.seq, event.runId, event.chunkText))
    },
    /** Sends the delta still held (the end of the history was reached). */
    flush: release,
  }
}

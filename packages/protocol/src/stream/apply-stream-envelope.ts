import type { BlocksState } from './blocks-state.ts'
import { reduceBlocks } from './reduce-blocks.ts'
import type { StreamEnvelope } from './stream-envelope.ts'

/**
 * Reduces a stored envelope unless its seq was already applied, so that an overlap after a
 * reconnect never doubles anything; records the seq for the next Last-Event-ID.
 */
export function applyStreamEnvelope(state: BlocksState, envelope: StreamEnvelope): BlocksState {
  if (state.lastSeq !== null && envelope.seq <= state.lastSeq) return state
  return { ...reduceBlocks(state, envelope.chunk), lastSeq: envelope.seq }
}

import type { StreamChunk } from './stream-chunk.ts'

// Deltas of one part concatenate, so the store and a replay may merge them: the blocks reducer
// (reduce-blocks.ts) applies one merged delta exactly as it would the pieces.

/** The key of a delta chunk's part (same key → the deltas concatenate), or undefined. */
export function deltaKey(chunk: StreamChunk): string | undefined {
  switch (chunk.type) {
    case 'text-delta':
    case 'reasoning-delta':
      return `${chunk.type}:${(chunk as { id: string }).id}`
    case 'tool-input-delta':
      return `tool-input-delta:${(chunk as { toolCallId: string }).toolCallId}`
    case 'data-tool-output-delta':
      return `data-tool-output-delta:${(chunk as { data: { toolCallId: string } }).data.toolCallId}`
    default:
      return undefined
  }
}

/** Whether the chunk is a piece of streamed content (text, reasoning, tool input or output). */
export function isDeltaChunk(chunk: StreamChunk): boolean {
  return deltaKey(chunk) !== undefined
}

/**
 * One delta with the text of both when `next` continues the same part as `previous`, else
 * undefined. The reducer applies the result exactly as it would the two (deltas concatenate).
 */
export function mergeDeltas(previous: StreamChunk, next: StreamChunk): StreamChunk | undefined {
  const key = deltaKey(previous)
  if (key === undefined || key !== deltaKey(next)) return undefined
  switch (next.type) {
    case 'text-delta':
    case 'reasoning-delta': {
      const before = previous as { delta: string }
      return { ...next, delta: before.delta + (next as { delta: string }).delta } as StreamChunk
    }
    case 'tool-input-delta': {
      const before = previous as { inputTextDelta: string }
      const after = next as { inputTextDelta: string }
      return {
        ...next,
        inputTextDelta: before.inputTextDelta + after.inputTextDelta,
      } as StreamChunk
    }
    case 'data-tool-output-delta': {
      const before = previous as { data: { toolCallId: string; delta: string } }
      const after = next as { data: { toolCallId: string; delta: string } }
      return {
        ...next,
        data: { toolCallId: after.data.toolCallId, delta: before.data.delta + after.data.delta },
      } as StreamChunk
    }
    default:
      return undefined
  }
}

import type { StreamChunk } from '@sprout/protocol/stream/stream-chunk.ts'
import type { SecretRedactor, StreamRedactor } from '@sprout/protocol/text/redact-secrets.ts'

type DeltaChunk = Extract<
  StreamChunk,
  { type: 'text-delta' } | { type: 'reasoning-delta' } | { type: 'tool-input-delta' }
>

/** The part a delta continues, and the delta chunk that carries more of it. */
function deltaOf(
  chunk: StreamChunk,
): { key: string; text: string; make: (text: string) => DeltaChunk } | undefined {
  switch (chunk.type) {
    case 'text-delta':
    case 'reasoning-delta': {
      const { type, id } = chunk as Extract<StreamChunk, { type: 'text-delta' }>
      const delta = (chunk as { delta: string }).delta
      return {
        key: `${type}:${id}`,
        text: delta,
        make: (text) => ({ type, id, delta: text }) as DeltaChunk,
      }
    }
    case 'tool-input-delta': {
      const { toolCallId, inputTextDelta } = chunk as Extract<
        StreamChunk,
        { type: 'tool-input-delta' }
      >
      return {
        key: `tool-input-delta:${toolCallId}`,
        text: inputTextDelta,
        make: (text) => ({ type: 'tool-input-delta', toolCallId, inputTextDelta: text }),
      }
    }
    default:
      return undefined
  }
}

/** The parts a chunk ends: their held text goes out just before it. */
function endedKeys(chunk: StreamChunk, open: Map<string, unknown>): string[] {
  switch (chunk.type) {
    case 'text-end':
    case 'reasoning-end': {
      const { id } = chunk as Extract<StreamChunk, { type: 'text-end' }>
      return [`${chunk.type.replace('-end', '-delta')}:${id}`]
    }
    case 'tool-input-available':
    case 'tool-input-error':
      return [`tool-input-delta:${(chunk as { toolCallId: string }).toolCallId}`]
    case 'finish-step':
    case 'finish':
    case 'abort':
    case 'data-error':
      return [...open.keys()]
    default:
      return []
  }
}

/**
 * Redacts the run's chunks before they are stored and streamed (docs/product/vault.md
 * "Redaction"). The model's text, reasoning and tool input arrive in deltas, where a value split
 * across two is caught too: each part's end of text that could start a value is held back until
 * the next delta or the part's end. Answers the chunks to store in place of the one given.
 */
export function createChunkRedactor(current: () => SecretRedactor | undefined) {
  const open = new Map<string, { stream: StreamRedactor; make: (text: string) => DeltaChunk }>()
  return (chunk: StreamChunk): StreamChunk[] => {
    const redactor = current()
    const out: StreamChunk[] = []
    for (const key of endedKeys(chunk, open)) {
      const part = open.get(key)
      open.delete(key)
      const held = part?.stream.flush()
      if (part && held) out.push(part.make(held))
    }
    const delta = deltaOf(chunk)
    let part = delta && open.get(delta.key)
    if (delta && !part && redactor && !redactor.empty) {
      part = { stream: redactor.stream(), make: delta.make }
      open.set(delta.key, part)
    }
    if (delta && part) {
      const text = part.stream.push(delta.text)
      if (text) out.push(delta.make(text))
      return out
    }
    out.push(redactor ? redactor.redactValue(chunk) : chunk)
    return out
  }
}

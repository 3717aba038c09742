import { formatSseEvent } from '@sprout/protocol/stream/sse-event.ts'
import type { StreamChunk } from '@sprout/protocol/stream/stream-chunk.ts'
import type { StreamEnvelope } from '@sprout/protocol/stream/stream-envelope.ts'
import { storableJson } from '@sprout/protocol/text/well-formed.ts'

const encoder = new TextEncoder()

/** A stored envelope with its SSE event bytes, encoded once and shared by every listener. */
export type EncodedEnvelope = { seq: number; runId: string | null; bytes: Uint8Array }

/**
 * A chunk as JSON text that PostgreSQL's jsonb accepts: it refuses NUL and lone surrogates, which
 * a model's delta or a program's output may hold. Live listeners get the same text as replays.
 */
export function chunkJson(chunk: StreamChunk): string {
  return storableJson(chunk)
}

/** `formatEnvelopeEvent` over a chunk already serialised, so the JSON is built only once. */
export function encodeEnvelope(
  seq: number,
  runId: string | null,
  chunkText: string,
): EncodedEnvelope {
  const data = `{"seq":${seq},"runId":${JSON.stringify(runId)},"chunk":${chunkText}}`
  return { seq, runId, bytes: encoder.encode(formatSseEvent({ id: seq, data })) }
}

export function encodeStreamEnvelope(envelope: StreamEnvelope): EncodedEnvelope {
  return encodeEnvelope(envelope.seq, envelope.runId, chunkJson(envelope.chunk))
}

import { formatSseEvent } from '@sprout/protocol/stream/sse-event.ts'
import type { StreamEnvelope } from '@sprout/protocol/stream/stream-envelope.ts'
import { storableJson } from '@sprout/protocol/text/well-formed.ts'

const encoder = new TextEncoder()

/** A stored envelope with its SSE event bytes, encoded once and shared by every listener. */
export type EncodedEnvelope = { seq: number; runId: string | null; bytes: Uint8Array }

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
  return encodeEnvelope(envelope.seq, envelope.runId, storableJson(envelope.chunk))
}

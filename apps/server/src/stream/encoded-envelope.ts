import { formatSseEvent } from '@sprout/protocol/stream/sse-event.ts'
import type { StreamChunk } from '@sprout/protocol/stream/stream-chunk.ts'
import type { StreamEnvelope } from '@sprout/protocol/stream/stream-envelope.ts'

const encoder = new TextEncoder()

/** A stored envelope with its SSE event bytes, encoded once and shared by every listener. */
export type EncodedEnvelope = { seq: number; runId: string | null; bytes: Uint8Array }

const withoutNul = (_key: string, value: unknown) =>
  typeof value === 'string' && value.includes('\0') ? value.replaceAll('\0', '\uFFFD') : value

/** A chunk as JSON text that PostgreSQL's jsonb accepts (it refuses the NUL character). */
export function chunkJson(chunk: StreamChunk): string {
  const json = JSON.stringify(chunk)
  return json.includes('\\u0000') ? JSON.stringify(chunk, withoutNul) : json
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

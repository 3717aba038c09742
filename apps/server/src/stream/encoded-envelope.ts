import { formatSseEvent } from '@sprout/protocol/stream/sse-event.ts'
import type { StreamEnvelope } from '@sprout/protocol/stream/stream-envelope.ts'
import { storableJson } from '@sprout/protocol/text/well-formed.ts'

const encoder = new TextEncoder()
const crlf = Buffer.from('\r\n')

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

export function concatBytes(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array
  return Buffer.concat(parts)
}

/** `bytes` as one chunk of an HTTP/1.1 chunked body: size in hex, CRLF, the bytes, CRLF. */
export function httpChunk(bytes: Uint8Array): Uint8Array {
  return Buffer.concat([Buffer.from(`${bytes.byteLength.toString(16)}\r\n`, 'latin1'), bytes, crlf])
}

/**
 * Consecutive envelopes (seqs `first`…`last`) delivered live to every listener of a
 * conversation at once. Their bytes are joined, and framed as an HTTP chunk, once for all the
 * listeners that take them whole, not once per listener.
 */
export class LiveBatch {
  readonly envelopes: readonly EncodedEnvelope[]
  readonly first: number
  readonly last: number
  #bytes: Uint8Array | undefined
  #chunk: Uint8Array | undefined

  constructor(envelopes: readonly EncodedEnvelope[]) {
    this.envelopes = envelopes
    this.first = envelopes[0]?.seq ?? 0
    this.last = envelopes.at(-1)?.seq ?? 0
  }

  /** The SSE events of the whole batch. */
  get bytes(): Uint8Array {
    this.#bytes ??= concatBytes(this.envelopes.map((envelope) => envelope.bytes))
    return this.#bytes
  }

  /** `bytes` framed as one HTTP/1.1 chunk (`httpChunk`). */
  get httpChunk(): Uint8Array {
    this.#chunk ??= httpChunk(this.bytes)
    return this.#chunk
  }
}

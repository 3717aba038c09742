import { z } from 'zod'
import { type StreamChunk, streamChunkSchema } from './stream-chunk.ts'

/**
 * A chunk as stored in conversation_events and sent as one SSE event: `seq` increases by one per
 * conversation, so a client resuming after `seq` N gets exactly the events after N.
 */
export const streamEnvelopeSchema = z.object({
  seq: z.number().int().nonnegative(),
  /** The agent run that produced the chunk; null for chunks outside a run (e.g. staged answers). */
  runId: z.string().nullable(),
  chunk: streamChunkSchema,
})
export type StreamEnvelope = z.infer<typeof streamEnvelopeSchema>

export function createStreamEnvelope(
  seq: number,
  runId: string | null,
  chunk: StreamChunk,
): StreamEnvelope {
  return { seq, runId, chunk }
}

/** Parses an SSE event's data; null when it is not JSON or not an envelope. */
export function parseStreamEnvelope(data: string): StreamEnvelope | null {
  let json: unknown
  try {
    json = JSON.parse(data)
  } catch {
    return null
  }
  const parsed = streamEnvelopeSchema.safeParse(json)
  return parsed.success ? parsed.data : null
}

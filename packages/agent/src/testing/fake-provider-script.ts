/**
 * The script a fake provider server plays: one turn per model request, in order. The same script
 * works for every provider; each fake server turns it into its own wire format.
 */
export type FakeBlock =
  | { type: 'thinking'; text: string; signature?: string }
  | { type: 'text'; text: string }
  | { type: 'tool-call'; name: string; input: unknown; id?: string }

export type FakeUsage = {
  /** Input tokens not read from or written to the cache. */
  inputTokens: number
  outputTokens: number
  cacheReadTokens?: number
  cacheWriteTokens?: number
}

export type FakeStreamTurn = {
  blocks: FakeBlock[]
  usage?: FakeUsage
  /** Pause between wire events (before the whole body without streaming), so abort, streaming
   * and concurrency can be observed. */
  eventDelayMs?: number
  /** After the blocks, keep the response open until the client goes away (no final events). */
  holdOpen?: boolean
  /** After the blocks, destroy the socket without the final events. */
  cutConnection?: boolean
  /** After the blocks, send the provider's in-stream error event instead of finishing. */
  streamError?: { type: string; message: string }
}

/** An HTTP error answer instead of a stream, e.g. 429, 529 or 500. */
export type FakeErrorTurn = { status: number; errorType?: string; message?: string }

export type FakeTurn = FakeStreamTurn | FakeErrorTurn

export type RecordedRequest = {
  method: string
  path: string
  headers: Record<string, string | string[] | undefined>
  body: unknown
}

export const defaultFakeUsage: FakeUsage = { inputTokens: 100, outputTokens: 20 }

/** The model a request asked for, or the fake's own name for one. */
export function requestedModel(request: RecordedRequest, fallback: string): string {
  const body = request.body as { model?: unknown } | undefined
  return typeof body?.model === 'string' ? body.model : fallback
}

export function isErrorTurn(turn: FakeTurn): turn is FakeErrorTurn {
  return 'status' in turn
}

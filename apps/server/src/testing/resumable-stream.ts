/** TEST HELPERS: a conversation's event stream read as the browser does, reconnecting after a drop. */
import { createSseParser } from '@sprout/protocol/stream/sse-parser.ts'
import {
  parseStreamEnvelope,
  type StreamEnvelope,
} from '@sprout/protocol/stream/stream-envelope.ts'

export type ResumableStream = {
  /** Every envelope received, over every connection, in order of arrival. */
  envelopes: StreamEnvelope[]
  /** Connections that ended or failed before `until` held, and answers other than 200. */
  reconnects: number
  /** Resolves once `until` held for an envelope; rejects after `timeoutMs`. */
  done: Promise<void>
  close: () => void
}

/**
 * Reads `url` (a listen URL without `last_event_id`) from `lastEventId`; when the connection
 * ends, fails or is refused (an instance killed or moving a box), connects again after
 * `retryMs` with the last seq received, as the web's EventSource does.
 */
export function readResumableStream(
  url: string,
  options: {
    headers: Record<string, string>
    until: (envelope: StreamEnvelope) => boolean
    timeoutMs: number
    lastEventId?: number
    retryMs?: number
  },
): ResumableStream {
  const controller = new AbortController()
  const stream: ResumableStream = {
    envelopes: [],
    reconnects: 0,
    done: Promise.resolve(),
    close: () => controller.abort(),
  }
  const lastSeq = () => stream.envelopes.at(-1)?.seq ?? options.lastEventId ?? 0
  const readOnce = async (): Promise<boolean> => {
    const separator = url.includes('?') ? '&' : '?'
    const response = await fetch(`${url}${separator}last_event_id=${lastSeq()}`, {
      headers: options.headers,
      signal: controller.signal,
    })
    if (response.status !== 200 || !response.body) {
      await response.body?.cancel()
      return false
    }
    const parser = createSseParser()
    const reader = response.body.getReader()
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return false
        for (const event of parser.feed(value)) {
          const envelope = parseStreamEnvelope(event.data)
          if (!envelope) throw new Error(`not an envelope: ${event.data}`)
          stream.envelopes.push(envelope)
          if (options.until(envelope)) return true
        }
      }
    } finally {
      await reader.cancel().catch(() => undefined)
    }
  }
  stream.done = (async () => {
    const timer = setTimeout(
      () => controller.abort(new Error('the stream did not end in time')),
      options.timeoutMs,
    )
    try {
      for (;;) {
        const ended = await readOnce().catch((error: unknown) => {
          if (controller.signal.aborted) throw controller.signal.reason ?? error
          return false
        })
        if (ended) return
        stream.reconnects += 1
        await new Promise((resolve) => setTimeout(resolve, options.retryMs ?? 500))
      }
    } finally {
      clearTimeout(timer)
    }
  })()
  return stream
}

/** The seqs of `envelopes` are 1..n without a gap or a repeat. */
export const seqsComplete = (envelopes: StreamEnvelope[]) =>
  envelopes.every((envelope, index) => envelope.seq === index + 1)

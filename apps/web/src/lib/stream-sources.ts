import { createSseParser } from '@sprout/protocol/stream/sse-parser.ts'
import { ApiError } from './api-error.ts'
import type { StreamSource, StreamSourceHandlers } from './stream-connection.ts'

/** The constructor of EventSource; a seam so tests can pass a fake. */
export type EventSourceConstructor = new (url: string) => EventSource

/**
 * A GET event stream read by the browser's EventSource. Its own reconnects would reuse the old
 * URL (and an expired token), so any error closes it and the connection reconnects instead.
 */
export function openEventSourceStream(
  url: string,
  handlers: StreamSourceHandlers,
  EventSourceImplementation: EventSourceConstructor = EventSource,
): StreamSource {
  const eventSource = new EventSourceImplementation(url)
  eventSource.onopen = () => handlers.open()
  eventSource.onmessage = (event: MessageEvent<string>) => handlers.data(event.data)
  eventSource.onerror = () => {
    eventSource.close()
    handlers.end()
  }
  return { close: () => eventSource.close() }
}

/**
 * An event stream in the body of a fetch response (e.g. a POST, which EventSource cannot send),
 * read with the protocol's SSE parser. Resolves once the response has arrived; rejects on a
 * failed request or a non-2xx answer.
 */
export async function openFetchEventStream(
  request: (signal: AbortSignal) => Promise<Response>,
  handlers: StreamSourceHandlers,
): Promise<StreamSource> {
  const controller = new AbortController()
  const response = await request(controller.signal)
  if (!response.ok || !response.body) {
    controller.abort()
    throw new ApiError(`The event stream answered ${response.status}`, response.status)
  }
  const reader = response.body.getReader()
  handlers.open()
  void (async () => {
    const parser = createSseParser()
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        for (const event of parser.feed(value)) {
          if (event.event === 'message') handlers.data(event.data)
        }
      }
    } catch {
      // A network error or our own abort; both end this connection.
    }
    if (!controller.signal.aborted) handlers.end()
  })()
  return { close: () => controller.abort() }
}

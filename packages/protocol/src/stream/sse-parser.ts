/** One dispatched server-sent event. */
export interface SseEvent {
  /** The last event id seen so far in the stream ('' before any), as EventSource reports it. */
  id: string
  /** 'message' unless an `event:` line named it. */
  event: string
  data: string
}

export interface SseParser {
  /** Feeds the next piece of the stream, split anywhere, and returns the events it completed. */
  feed(chunk: string | Uint8Array): SseEvent[]
  readonly lastEventId: string
  /** The reconnection time from the last valid `retry:` line, if any. */
  readonly retry: number | undefined
}

/**
 * An incremental parser following the WHATWG event-stream rules: CRLF, CR or LF line ends,
 * `:` comments (heartbeats) skipped, multi-line data joined with '\n', `id:` remembered across
 * events, an event without data not dispatched, an unterminated last event dropped.
 */
export function createSseParser(): SseParser {
  const decoder = new TextDecoder()
  let partialLine = ''
  let endedWithCarriageReturn = false
  let atStreamStart = true
  let dataLines: string[] = []
  let eventType = ''
  let lastEventId = ''
  let retry: number | undefined

  const processLine = (line: string, events: SseEvent[]) => {
    if (line === '') {
      if (dataLines.length > 0) {
        events.push({ id: lastEventId, event: eventType || 'message', data: dataLines.join('\n') })
      }
      dataLines = []
      eventType = ''
      return
    }
    if (line.startsWith(':')) return
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'data') dataLines.push(value)
    else if (field === 'event') eventType = value
    else if (field === 'id' && !value.includes('\0')) lastEventId = value
    else if (field === 'retry' && /^\d+$/.test(value)) retry = Number(value)
  }

  return {
    feed(chunk) {
      let text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })
      if (text === '') return []
      if (atStreamStart) {
        atStreamStart = false
        if (text.startsWith('\uFEFF')) text = text.slice(1)
      }
      const events: SseEvent[] = []
      let lineStart = 0
      if (endedWithCarriageReturn && text.startsWith('\n')) lineStart = 1
      endedWithCarriageReturn = false
      for (let index = lineStart; index < text.length; index++) {
        const character = text[index]
        if (character !== '\n' && character !== '\r') continue
        processLine(partialLine + text.slice(lineStart, index), events)
        partialLine = ''
        if (character === '\r') {
          if (index + 1 === text.length) endedWithCarriageReturn = true
          else if (text[index + 1] === '\n') index++
        }
        lineStart = index + 1
      }
      partialLine += text.slice(lineStart)
      return events
    },
    get lastEventId() {
      return lastEventId
    },
    get retry() {
      return retry
    },
  }
}

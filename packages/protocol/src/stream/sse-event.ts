import type { StreamEnvelope } from './stream-envelope.ts'

/** Server-sent events framing (https://html.spec.whatwg.org/multipage/server-sent-events.html). */
export interface SseEventInit {
  id?: string | number
  event?: string
  data: string
  /** Milliseconds the browser waits before reconnecting. */
  retry?: number
}

const lineBreak = /\r\n|\r|\n/

export function formatSseEvent(event: SseEventInit): string {
  const lines: string[] = []
  if (event.event !== undefined) lines.push(`event: ${singleLine(event.event, 'event')}`)
  if (event.id !== undefined) lines.push(`id: ${singleLine(String(event.id), 'id')}`)
  if (event.retry !== undefined) lines.push(`retry: ${Math.max(0, Math.round(event.retry))}`)
  for (const line of event.data.split(lineBreak)) lines.push(`data: ${line}`)
  return `${lines.join('\n')}\n\n`
}

/** A comment line: ignored by clients, keeps proxies from closing an idle connection. */
export function formatSseComment(text = ''): string {
  return `${text
    .split(lineBreak)
    .map((line) => (line === '' ? ':' : `: ${line}`))
    .join('\n')}\n\n`
}

export const SSE_HEARTBEAT = formatSseComment('heartbeat')

/** One stored chunk as an SSE event whose id is its seq, for resuming with Last-Event-ID. */
export function formatEnvelopeEvent(envelope: StreamEnvelope): string {
  return formatSseEvent({ id: envelope.seq, data: JSON.stringify(envelope) })
}

function singleLine(value: string, field: string): string {
  if (lineBreak.test(value) || value.includes('\0')) {
    throw new Error(`SSE ${field} must be a single line without NUL characters`)
  }
  return value
}

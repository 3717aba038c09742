import type { StreamEnvelope } from '@sprout/protocol/stream/stream-envelope.ts'

/** Just enough of EventSource: the test opens, feeds and fails each connection by hand. */
export class FakeEventSource {
  static instances: FakeEventSource[] = []
  onopen: (() => void) | null = null
  onmessage: ((event: MessageEvent<string>) => void) | null = null
  onerror: (() => void) | null = null
  closed = false
  readonly url: string
  constructor(url: string) {
    this.url = url
    FakeEventSource.instances.push(this)
  }
  close() {
    this.closed = true
  }
  open() {
    this.onopen?.()
  }
  emit(envelope: StreamEnvelope | string) {
    const data = typeof envelope === 'string' ? envelope : JSON.stringify(envelope)
    this.onmessage?.(new MessageEvent('message', { data }))
  }
  fail() {
    this.onerror?.()
  }
  get query() {
    return new URL(this.url, 'http://localhost').searchParams
  }
}

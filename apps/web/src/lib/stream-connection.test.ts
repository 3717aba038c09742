import type { StreamEnvelope } from '@sprout/protocol/stream/stream-envelope.ts'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FakeEventSource } from '../testing/fake-event-source.ts'
import { createBlocksStore } from './blocks-store.ts'
import { createStreamConnection, type StreamConnectionStatus } from './stream-connection.ts'
import { openEventSourceStream, openFetchEventStream } from './stream-sources.ts'

const textDelta = (seq: number, delta: string): StreamEnvelope => ({
  seq,
  runId: 'run-1',
  chunk: { type: 'text-delta', id: '0', delta },
})

/** A connection like the builder's: a new token per attempt, resuming from the store. */
function connect(options: { random?: () => number } = {}) {
  const store = createBlocksStore({ request: () => 0, cancel: () => {} })
  let tokens = 0
  const statuses: StreamConnectionStatus[] = []
  const connection = createStreamConnection({
    open: async (lastSeq, handlers) => {
      tokens += 1
      const query = new URLSearchParams({ conversation_id: 'c1', token: `jwt-${tokens}` })
      if (lastSeq !== null) query.set('last_event_id', String(lastSeq))
      return openEventSourceStream(
        `/listen?${query}`,
        handlers,
        FakeEventSource as unknown as typeof EventSource,
      )
    },
    lastSeq: store.lastSeq,
    onEnvelope: store.receive,
    onStatus: (status) => statuses.push(status),
    random: options.random ?? (() => 0.5),
  })
  return { store, connection, statuses }
}

const latest = () => FakeEventSource.instances.at(-1) as FakeEventSource

describe('createStreamConnection', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    FakeEventSource.instances = []
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('connects without last_event_id first, so the history is replayed', async () => {
    const { store } = connect()
    await vi.advanceTimersByTimeAsync(0)
    const source = latest()
    expect(source.query.get('token')).toBe('jwt-1')
    expect(source.query.has('last_event_id')).toBe(false)
    source.open()
    source.emit({ seq: 1, runId: 'run-1', chunk: { type: 'start' } })
    source.emit({ seq: 2, runId: 'run-1', chunk: { type: 'text-start', id: '0' } })
    source.emit(textDelta(3, 'Hello'))
    source.emit('not json')
    store.flush()
    expect(store.getState().blocks[0]?.content).toBe('Hello')
    expect(store.getState().lastSeq).toBe(3)
  })

  it('reconnects after an error with a new token, resuming after the last seq, without duplicates', async () => {
    const { store } = connect()
    await vi.advanceTimersByTimeAsync(0)
    const first = latest()
    first.open()
    first.emit({ seq: 1, runId: 'run-1', chunk: { type: 'start' } })
    first.emit({ seq: 2, runId: 'run-1', chunk: { type: 'text-start', id: '0' } })
    first.emit(textDelta(3, 'Hel'))
    first.fail()
    expect(first.closed).toBe(true)

    // 1 s base delay (random 0.5 means no jitter).
    await vi.advanceTimersByTimeAsync(999)
    expect(FakeEventSource.instances).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    const second = latest()
    expect(second).not.toBe(first)
    expect(second.query.get('token')).toBe('jwt-2')
    expect(second.query.get('last_event_id')).toBe('3')

    // The server may overlap what was already received: applied once.
    second.open()
    second.emit(textDelta(3, 'Hel'))
    second.emit(textDelta(4, 'lo'))
    store.flush()
    expect(store.getState().blocks[0]?.content).toBe('Hello')
    expect(store.getState().lastSeq).toBe(4)
  })

  it('backs off exponentially (1, 2, 4 s ...) up to 30 s with ±25 % jitter, and resets once open', async () => {
    const delays: number[] = []
    let random = 0.5
    connect({ random: () => random })
    await vi.advanceTimersByTimeAsync(0)
    const waitForNext = async () => {
      const before = FakeEventSource.instances.length
      let waited = 0
      while (FakeEventSource.instances.length === before) {
        await vi.advanceTimersByTimeAsync(50)
        waited += 50
      }
      delays.push(waited)
    }
    for (let attempt = 0; attempt < 7; attempt++) {
      latest().fail()
      await waitForNext()
    }
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000])

    // A connection that opened starts over at 1 s; jitter moves it by at most 25 %.
    latest().open()
    random = 0
    latest().fail()
    delays.length = 0
    await waitForNext()
    expect(delays).toEqual([750])
    random = 0.999_999
    latest().open()
    latest().fail()
    delays.length = 0
    await waitForNext()
    expect(delays).toEqual([1_250])
  })

  it('counts a failed token request as a failed attempt', async () => {
    let calls = 0
    const opened: number[] = []
    createStreamConnection({
      open: async (_lastSeq, handlers) => {
        calls += 1
        if (calls === 1) throw new Error('No authentication token found.')
        opened.push(calls)
        return openEventSourceStream(
          '/listen',
          handlers,
          FakeEventSource as unknown as typeof EventSource,
        )
      },
      lastSeq: () => null,
      onEnvelope: () => {},
      random: () => 0.5,
    })
    await vi.advanceTimersByTimeAsync(0)
    expect(FakeEventSource.instances).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(1_000)
    expect(opened).toEqual([2])
  })

  it('stops for good when closed, even during a backoff or a pending token request', async () => {
    const { connection, statuses } = connect()
    await vi.advanceTimersByTimeAsync(0)
    latest().fail()
    connection.close()
    await vi.advanceTimersByTimeAsync(60_000)
    expect(FakeEventSource.instances).toHaveLength(1)
    expect(statuses.at(-1)).toBe('closed')
  })

  it('ignores events of a source it has replaced', async () => {
    const { store, connection } = connect()
    await vi.advanceTimersByTimeAsync(0)
    const old = latest()
    old.open()
    connection.reconnectNow()
    await vi.advanceTimersByTimeAsync(0)
    expect(old.closed).toBe(true)
    old.emit({ seq: 1, runId: 'run-1', chunk: { type: 'start' } })
    store.flush()
    expect(store.getState().isRunning).toBe(false)
  })

  it('stops for good when the server answers 404: the conversation does not exist', async () => {
    let attempts = 0
    const statuses: StreamConnectionStatus[] = []
    createStreamConnection({
      open: (_lastSeq, handlers) => {
        attempts += 1
        return openFetchEventStream(async () => new Response('{}', { status: 404 }), handlers)
      },
      lastSeq: () => null,
      onEnvelope: () => {},
      onStatus: (status) => statuses.push(status),
      random: () => 0.5,
    })
    await vi.advanceTimersByTimeAsync(120_000)
    expect(attempts).toBe(1)
    expect(statuses).toEqual(['connecting', 'gone'])
  })

  it('keeps retrying other failures with backoff', async () => {
    let attempts = 0
    createStreamConnection({
      open: (_lastSeq, handlers) => {
        attempts += 1
        return openFetchEventStream(async () => new Response('', { status: 503 }), handlers)
      },
      lastSeq: () => null,
      onEnvelope: () => {},
      random: () => 0.5,
    })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(attempts).toBeGreaterThan(2)
  })
})

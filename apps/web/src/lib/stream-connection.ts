import { reconnectDelay } from '@sprout/protocol/stream/reconnect-delay.ts'
import {
  parseStreamEnvelope,
  type StreamEnvelope,
} from '@sprout/protocol/stream/stream-envelope.ts'
import { ApiError } from './api-error.ts'

/** What a stream source reports: the data of each server-sent event, its opening and its end. */
export type StreamSourceHandlers = {
  open: () => void
  data: (data: string) => void
  /** The connection failed or ended; the connection reconnects after a backoff. */
  end: () => void
}

/** One open connection of a source; closing it must stop every further handler call. */
export type StreamSource = { close: () => void }

/**
 * Opens one connection that resumes after `lastSeq` (null: from the start, i.e. with the
 * history). Rejecting counts as a failed attempt.
 */
export type OpenStreamSource = (
  lastSeq: number | null,
  handlers: StreamSourceHandlers,
) => Promise<StreamSource>

/** `gone`: the server answered 404 — the conversation does not exist; nothing is retried. */
export type StreamConnectionStatus = 'connecting' | 'open' | 'waiting' | 'closed' | 'gone'

export type StreamConnectionOptions = {
  open: OpenStreamSource
  /** The last seq applied or queued; read at every (re)connect so a resume skips nothing. */
  lastSeq: () => number | null
  onEnvelope: (envelope: StreamEnvelope) => void
  onStatus?: (status: StreamConnectionStatus) => void
  /** Seams for tests. */
  random?: () => number
  setTimer?: (callback: () => void, milliseconds: number) => unknown
  clearTimer?: (timer: unknown) => void
}

export type StreamConnection = {
  close: () => void
  /** Drops the current connection (or a pending backoff) and connects at once. */
  reconnectNow: () => void
}

/**
 * The chat's one transport (docs/architecture/stream-protocol.md "Resume"): keeps a source open,
 * turns each event into an envelope, and after an error or an end reconnects with backoff
 * (1 s doubled, ±25 %, at most 30 s), resuming after the last applied seq.
 */
export function createStreamConnection(options: StreamConnectionOptions): StreamConnection {
  const random = options.random ?? Math.random
  const setTimer =
    options.setTimer ?? ((callback, milliseconds) => setTimeout(callback, milliseconds))
  const clearTimer =
    options.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>))
  let closed = false
  let attempt = 0
  let generation = 0
  let source: StreamSource | null = null
  let timer: unknown = null

  const setStatus = (status: StreamConnectionStatus) => options.onStatus?.(status)

  const dropCurrent = () => {
    generation += 1
    source?.close()
    source = null
    if (timer !== null) clearTimer(timer)
    timer = null
  }

  const scheduleReconnect = () => {
    dropCurrent()
    if (closed) return
    const delay = reconnectDelay(attempt, random())
    attempt += 1
    setStatus('waiting')
    timer = setTimer(() => {
      timer = null
      connect()
    }, delay)
  }

  const connect = () => {
    if (closed) return
    const current = ++generation
    const isCurrent = () => !closed && current === generation
    setStatus('connecting')
    const handlers: StreamSourceHandlers = {
      open: () => {
        if (!isCurrent()) return
        attempt = 0
        setStatus('open')
      },
      data: (data) => {
        if (!isCurrent()) return
        const envelope = parseStreamEnvelope(data)
        if (envelope) options.onEnvelope(envelope)
      },
      end: () => {
        if (isCurrent()) scheduleReconnect()
      },
    }
    options.open(options.lastSeq(), handlers).then(
      (opened) => {
        if (isCurrent()) source = opened
        else opened.close()
      },
      (error: unknown) => {
        if (!isCurrent()) return
        if (error instanceof ApiError && error.status === 404) {
          closed = true
          dropCurrent()
          setStatus('gone')
          return
        }
        scheduleReconnect()
      },
    )
  }

  connect()
  return {
    close: () => {
      closed = true
      dropCurrent()
      setStatus('closed')
    },
    reconnectNow: () => {
      if (closed) return
      dropCurrent()
      attempt = 0
      connect()
    },
  }
}

import type { ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response'
import type { Context } from 'hono'
import type { AppEnv } from '../http/app-env.ts'
import { httpChunk } from './encoded-envelope.ts'
import type { LiveSink } from './event-session-state.ts'
import {
  type EventStreamOptions,
  type EventStreamSession,
  openEventSession,
  openEventStream,
  sseHeaders,
} from './event-stream.ts'

/**
 * Answers a listen call with its event stream. Under Node the bytes go straight to the socket: a
 * ReadableStream body costs a promise chain per event and listener, most of the work with a
 * thousand tabs on one conversation. Elsewhere (`app.request` in tests) the stream is the body.
 */
export async function sseResponse(
  context: Context<AppEnv>,
  options: EventStreamOptions,
): Promise<Response> {
  const outgoing = context.env?.outgoing as ServerResponse | undefined
  if (!outgoing) return new Response(await openEventStream(options), { headers: sseHeaders })
  const writer = createWriter(outgoing)
  const session = await openEventSession(options, writer.sink)
  void writeEvents(session, outgoing, writer).finally(() => options.onClose?.())
  return RESPONSE_ALREADY_SENT
}

type Writer = {
  /** Writes bytes; false when the caller should wait for `drained` before writing more. */
  write: (bytes: Uint8Array) => boolean
  drained: () => Promise<void>
  sink: LiveSink | undefined
}

/**
 * Writes a chunked body straight to the socket, ready framed: a live batch is framed once for all
 * listeners and each write is one `socket.write`. Only while the socket is this response's alone
 * and the body is chunked (any HTTP/1.1 client).
 */
function createWriter(outgoing: ServerResponse): Writer {
  let socket: Socket | undefined
  const ownSocket = () => {
    if (socket) return socket
    const candidate = outgoing.socket as (Socket & { _httpMessage?: unknown }) | null
    if (outgoing.headersSent && outgoing.chunkedEncoding && candidate?._httpMessage === outgoing) {
      socket = candidate
    }
    return socket
  }
  const write = (bytes: Uint8Array): boolean => {
    const direct = ownSocket()
    return direct ? direct.write(httpChunk(bytes)) : outgoing.write(bytes)
  }
  // Not `once(…, 'drain')`: that rejects on the socket's 'error' (a listener gone), which is an
  // ordinary end here ('close' follows).
  const drained = () =>
    new Promise<void>((resolve) => {
      const target = socket ?? outgoing
      const done = () => {
        target.off('drain', done)
        target.off('close', done)
        resolve()
      }
      target.once('drain', done)
      target.once('close', done)
    })
  return {
    write,
    drained,
    sink: {
      writable: () => {
        const direct = ownSocket()
        return direct !== undefined && !direct.destroyed && !direct.writableNeedDrain
      },
      write: (batch) => {
        socket?.write(batch.httpChunk)
      },
    },
  }
}

async function writeEvents(session: EventStreamSession, outgoing: ServerResponse, writer: Writer) {
  const closed = new Promise<void>((resolve) => {
    outgoing.once('close', () => {
      session.close()
      resolve()
    })
  })
  try {
    outgoing.writeHead(200, { ...sseHeaders, 'x-content-type-options': 'nosniff' })
    outgoing.flushHeaders()
    for (;;) {
      const bytes = await session.next()
      if (!bytes || outgoing.destroyed) break
      if (!writer.write(bytes)) {
        await Promise.race([writer.drained(), closed])
      }
    }
    outgoing.end()
  } catch (error) {
    console.error('[events] writing a listen stream failed:', error)
    outgoing.destroy()
  } finally {
    session.close()
  }
}

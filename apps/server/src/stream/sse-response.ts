import { once } from 'node:events'
import type { ServerResponse } from 'node:http'
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response'
import type { Context } from 'hono'
import type { AppEnv } from '../app-env.ts'
import {
  type EventStreamOptions,
  type EventStreamSession,
  openEventSession,
  openEventStream,
  sseHeaders,
} from './event-stream.ts'

/**
 * Answers a listen call with its event stream. Served by Node, the bytes go straight to the
 * socket: a ReadableStream body costs a chain of promises per event and listener, which is most
 * of the server's work when a thousand tabs watch one conversation. Elsewhere (tests calling
 * `app.request`) the stream is the response's body.
 */
export async function sseResponse(
  context: Context<AppEnv>,
  options: EventStreamOptions,
): Promise<Response> {
  const outgoing = context.env?.outgoing as ServerResponse | undefined
  if (!outgoing) return new Response(await openEventStream(options), { headers: sseHeaders })
  const session = await openEventSession(options)
  void writeEvents(session, outgoing).finally(() => options.onClose?.())
  return RESPONSE_ALREADY_SENT
}

async function writeEvents(session: EventStreamSession, outgoing: ServerResponse) {
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
      if (!outgoing.write(bytes)) {
        await Promise.race([once(outgoing, 'drain'), closed])
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

/** TEST FIXTURE: an HTTP server on 127.0.0.1 that answers model requests from a script. */
import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  type FakeErrorTurn,
  type FakeStreamTurn,
  type FakeTurn,
  isErrorTurn,
  type RecordedRequest,
} from './fake-provider-script.ts'
import { listenOnLoopback } from './listen-on-loopback.ts'

export type FakeProviderServer = {
  /** Base URL to give the provider, including the version path, e.g. http://127.0.0.1:1234/v1 */
  baseUrl: string
  /** Every request received, in order, with its parsed JSON body. */
  requests: RecordedRequest[]
  /** The most requests that were being answered at the same time. */
  peakConcurrency: () => number
  /** Appends turns to the script. */
  push: (...turns: FakeTurn[]) => void
  close: () => Promise<void>
}

/** Writes wire events one by one; returns false once the client has gone away. */
export type EventWriter = (event: string | undefined, data: unknown) => Promise<boolean>

export type WireFormat = {
  /** Request paths this format answers, e.g. '/v1/messages'. */
  paths: string[]
  /** Streams the opening events and the blocks of a turn; returns what sends its final events. */
  streamBlocks: (
    turn: FakeStreamTurn,
    write: EventWriter,
    request: RecordedRequest,
  ) => Promise<() => Promise<void>>
  /** The whole answer of a request without `stream: true`, as the provider's JSON body. */
  jsonBody: (turn: FakeStreamTurn, request: RecordedRequest) => unknown
  /** The JSON body of an HTTP error answer. */
  errorBody: (turn: FakeErrorTurn) => unknown
  /** Sends the provider's in-stream error event. */
  streamError: (error: { type: string; message: string }, write: EventWriter) => Promise<void>
  /** Written after the last event of a normal stream, e.g. 'data: [DONE]'. */
  endOfStream?: string
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    request.on('error', reject)
  })
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))

export async function startFakeProviderServer(
  format: WireFormat,
  script: FakeTurn[],
): Promise<FakeProviderServer> {
  const turns = [...script]
  const requests: RecordedRequest[] = []
  let inFlight = 0
  let peak = 0

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const text = await readBody(request)
    let body: unknown = text
    try {
      body = JSON.parse(text)
    } catch {}
    const recorded: RecordedRequest = {
      method: request.method ?? 'GET',
      path: request.url ?? '/',
      headers: request.headers,
      body,
    }
    requests.push(recorded)
    inFlight += 1
    peak = Math.max(peak, inFlight)
    response.on('close', () => {
      inFlight -= 1
    })
    if (!format.paths.includes(new URL(recorded.path, 'http://fake').pathname)) {
      response.writeHead(404, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ error: `fake server: no route ${recorded.path}` }))
      return
    }
    const turn = turns.shift()
    if (!turn) {
      response.writeHead(500, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ error: { message: 'fake server: no scripted turn left' } }))
      return
    }
    if (isErrorTurn(turn)) {
      response.writeHead(turn.status, { 'content-type': 'application/json' })
      response.end(JSON.stringify(format.errorBody(turn)))
      return
    }
    if ((body as { stream?: unknown } | undefined)?.stream !== true) {
      if (turn.eventDelayMs) await sleep(turn.eventDelayMs)
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify(format.jsonBody(turn, recorded)))
      return
    }
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    })
    response.flushHeaders()
    let open = true
    response.on('close', () => {
      open = false
    })
    const write: EventWriter = async (event, data) => {
      if (turn.eventDelayMs) await sleep(turn.eventDelayMs)
      if (!open) return false
      const eventLine = event ? `event: ${event}\n` : ''
      response.write(`${eventLine}data: ${JSON.stringify(data)}\n\n`)
      return true
    }
    const finish = await format.streamBlocks(turn, write, recorded)
    if (turn.cutConnection) {
      request.socket.destroy()
      return
    }
    if (turn.holdOpen) return
    if (turn.streamError) await format.streamError(turn.streamError, write)
    else await finish()
    if (format.endOfStream && open) response.write(`${format.endOfStream}\n\n`)
    response.end()
  }

  const server = await listenOnLoopback((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500)
      response.end(String(error))
    })
  })
  return {
    baseUrl: `http://127.0.0.1:${server.port}/v1`,
    requests,
    peakConcurrency: () => peak,
    push: (...more) => turns.push(...more),
    close: server.close,
  }
}

import { randomUUID } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { DatabaseHandle } from '@sprout/db/database.ts'
import { organization } from '@sprout/db/schema/auth.ts'
import { conversations } from '@sprout/db/schema/conversations.ts'
import { createSseParser } from '@sprout/protocol/stream/sse-parser.ts'
import type { StreamChunk } from '@sprout/protocol/stream/stream-chunk.ts'
import {
  parseStreamEnvelope,
  type StreamEnvelope,
} from '@sprout/protocol/stream/stream-envelope.ts'
import type { Context } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppEnv } from '../http/app-env.ts'
import { createTestDatabase } from '../testing/database.ts'
import type { EncodedEnvelope } from './encoded-envelope.ts'
import { createEventHub, type EventHub } from './event-hub.ts'
import { MAX_QUEUED_ENVELOPES } from './event-session-state.ts'
import { createEventStore, type EventStore } from './event-store.ts'
import { openEventStream } from './event-stream.ts'
import { sseResponse } from './sse-response.ts'

type Process = { store: EventStore; hub: EventHub }

/** One server process's store and hub; several on one database act as several processes. */
async function startProcess(database: DatabaseHandle, heartbeatMs?: number): Promise<Process> {
  let store: EventStore | undefined
  const hub = createEventHub({
    database,
    store: () => store as EventStore,
    heartbeatMs,
  })
  store = createEventStore({ database, onStored: hub.published })
  await hub.start()
  return { store, hub }
}

const delta = (text: string): StreamChunk => ({ type: 'text-delta', id: '0', delta: text })

async function readAll(
  stream: ReadableStream<Uint8Array>,
  count: number,
): Promise<StreamEnvelope[]> {
  const reader = stream.getReader()
  const parser = createSseParser()
  const envelopes: StreamEnvelope[] = []
  while (envelopes.length < count) {
    const { done, value } = await reader.read()
    if (done) break
    for (const event of parser.feed(value)) {
      const envelope = parseStreamEnvelope(event.data)
      if (envelope) envelopes.push(envelope)
    }
  }
  await reader.cancel()
  return envelopes
}

describe('the event store and its live fan-out', { timeout: 60_000 }, () => {
  let database: DatabaseHandle
  let first: Process
  let second: Process
  let organizationId: string

  const newConversation = async () => {
    const id = randomUUID()
    await database.db.insert(conversations).values({
      id,
      organizationId,
      kind: 'exploration',
      title: 'Test',
      activeModel: 'demo',
    })
    return id
  }

  beforeAll(async () => {
    database = await createTestDatabase()
    organizationId = randomUUID()
    await database.db
      .insert(organization)
      .values({ id: organizationId, name: 'Org', slug: organizationId, createdAt: new Date() })
    first = await startProcess(database)
    second = await startProcess(database)
  })
  afterAll(async () => {
    for (const process of [first, second]) {
      await process.hub.stop()
      process.store.close()
    }
    await database.close()
  })

  it('gives seqs without gaps or repeats when two processes append at once', async () => {
    const conversationId = await newConversation()
    const writes: Promise<void>[] = []
    for (let index = 0; index < 300; index++) {
      // Non-deltas, so that nothing is merged; awaited in parallel to race the two writers.
      writes.push(
        first.store.appendAndWait(conversationId, 'a', { type: 'text-start', id: `a${index}` }),
        second.store.appendAndWait(conversationId, 'b', { type: 'text-start', id: `b${index}` }),
      )
    }
    await Promise.all(writes)
    const stored = await first.store.read(conversationId, 0, Number.MAX_SAFE_INTEGER, 10_000)
    expect(stored.map((event) => event.seq)).toEqual(stored.map((_, index) => index + 1))
    const idsOf = (runId: string) =>
      stored
        .filter((event) => event.runId === runId)
        .map((event) => (JSON.parse(event.chunkText) as { id: string }).id)
    expect(idsOf('a')).toEqual(Array.from({ length: 300 }, (_, index) => `a${index}`))
    expect(idsOf('b')).toEqual(Array.from({ length: 300 }, (_, index) => `b${index}`))
  })

  it('merges consecutive deltas of one part that wait for the same batch', async () => {
    const conversationId = await newConversation()
    first.store.append(conversationId, 'r', { type: 'text-start', id: '0' })
    const words = Array.from({ length: 200 }, (_, index) => `word${index} `)
    for (const word of words) first.store.append(conversationId, 'r', delta(word))
    first.store.append(conversationId, 'r', { type: 'text-end', id: '0' })
    await first.store.flush(conversationId)
    const stored = await first.store.read(conversationId, 0, Number.MAX_SAFE_INTEGER, 10_000)
    const chunks = stored.map((event) => JSON.parse(event.chunkText) as StreamChunk)
    expect(chunks.length).toBeLessThan(20)
    expect(chunks.at(0)).toEqual({ type: 'text-start', id: '0' })
    expect(chunks.at(-1)).toEqual({ type: 'text-end', id: '0' })
    const text = chunks.map((chunk) => (chunk as { delta?: string }).delta ?? '').join('')
    expect(text).toBe(words.join(''))
  })

  it('stores text with NUL characters, which jsonb refuses, as the replacement character', async () => {
    const conversationId = await newConversation()
    await first.store.appendAndWait(conversationId, null, delta('a\u0000b'))
    const [event] = await first.store.read(conversationId, 0, 10, 10)
    expect(JSON.parse(event?.chunkText ?? '')).toEqual(delta('a\uFFFDb'))
  })

  it("delivers one process's events to another's listeners, in order, through NOTIFY", async () => {
    const conversationId = await newConversation()
    const received: EncodedEnvelope[] = []
    const subscription = await second.hub.subscribe(conversationId, {
      deliver: (envelope) => received.push(envelope),
      heartbeat: () => {},
      close: () => {},
    })
    expect(subscription.startAt).toBe(0)
    for (let index = 0; index < 50; index++) {
      await first.store.appendAndWait(conversationId, 'r', { type: 'text-start', id: `${index}` })
    }
    for (let attempt = 0; attempt < 200 && received.length < 50; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    subscription.unsubscribe()
    expect(received.map((envelope) => envelope.seq)).toEqual(
      Array.from({ length: 50 }, (_, index) => index + 1),
    )
  })

  it('sends a heartbeat comment to an idle listener', async () => {
    const beating = await startProcess(database, 50)
    try {
      const conversationId = await newConversation()
      const stream = await openEventStream({
        hub: beating.hub,
        store: beating.store,
        conversationId,
        after: undefined,
      })
      const reader = stream.getReader()
      const { value } = await reader.read()
      expect(new TextDecoder().decode(value)).toBe(': heartbeat\n\n')
      await reader.cancel()
      expect(beating.hub.stats().listeners).toBe(0)
    } finally {
      await beating.hub.stop()
      beating.store.close()
    }
  })

  it('holds a bounded backlog for a listener that does not read, and still sends it everything', async () => {
    const conversationId = await newConversation()
    const stream = await openEventStream({
      hub: first.hub,
      store: first.store,
      conversationId,
      after: 0,
    })
    const total = MAX_QUEUED_ENVELOPES * 3
    for (let index = 0; index < total; index++) {
      const chunk: StreamChunk = { type: 'text-start', id: `${index}` }
      if (index % 100 === 99) await first.store.appendAndWait(conversationId, 'r', chunk)
      else first.store.append(conversationId, 'r', chunk)
    }
    await first.store.flush(conversationId)
    expect(first.hub.stats().maxQueued).toBeLessThanOrEqual(MAX_QUEUED_ENVELOPES)
    const envelopes = await readAll(stream, total)
    expect(envelopes.map((envelope) => envelope.seq)).toEqual(
      Array.from({ length: total }, (_, index) => index + 1),
    )
    expect(first.hub.stats().listeners).toBe(0)
  })

  it('writes a Node response its replay, then live batches straight to the socket, in order', async () => {
    const conversationId = await newConversation()
    for (let index = 0; index < 5; index++) {
      await first.store.appendAndWait(conversationId, 'r', { type: 'text-start', id: `${index}` })
    }
    const server = http.createServer((_request, response) => {
      const context = { env: { outgoing: response } } as unknown as Context<AppEnv>
      void sseResponse(context, { hub: first.hub, store: first.store, conversationId, after: 2 })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = server.address() as AddressInfo
      const seqs: number[] = []
      const total = 45
      const received = new Promise<http.IncomingMessage>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path: '/', agent: false }, (response) => {
            const parser = createSseParser()
            response.on('data', (bytes: Buffer) => {
              for (const event of parser.feed(bytes)) {
                const envelope = parseStreamEnvelope(event.data)
                if (envelope) seqs.push(envelope.seq)
              }
              if (seqs.length >= total - 2) resolve(response)
            })
          })
          .on('error', reject)
      })
      for (let attempt = 0; attempt < 200 && first.hub.stats().listeners === 0; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
      for (let index = 5; index < total; index++) {
        const chunk: StreamChunk = { type: 'text-start', id: `${index}` }
        if (index % 10 === 0) await first.store.appendAndWait(conversationId, 'r', chunk)
        else first.store.append(conversationId, 'r', chunk)
      }
      const response = await received
      expect(response.headers['transfer-encoding']).toBe('chunked')
      expect(seqs).toEqual(Array.from({ length: total - 2 }, (_, index) => index + 3))
      response.destroy()
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

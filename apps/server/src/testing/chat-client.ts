/** TEST HELPERS: the chat as a browser drives it, over real HTTP for the event stream. */

import { startFakeAnthropic } from '@sprout/agent/testing/fake-anthropic.ts'
import type { FakeProviderServer } from '@sprout/agent/testing/fake-provider-server.ts'
import { createSseParser } from '@sprout/protocol/stream/sse-parser.ts'
import {
  parseStreamEnvelope,
  type StreamEnvelope,
} from '@sprout/protocol/stream/stream-envelope.ts'
import { afterAll, beforeAll, expect } from 'vitest'
import { createTestApp, type TestApp, type TestUser, waitForEditorReady } from './app-harness.ts'

export type ChatActor = { harness: TestApp; user: TestUser; organizationId: string }

/** A JSON call as the actor, in their organization; answers the status and the parsed body. */
export async function call<Body = Record<string, unknown>>(
  actor: ChatActor,
  path: string,
  body?: unknown,
  method = body === undefined ? 'GET' : 'POST',
): Promise<{ status: number; body: Body }> {
  const response = await actor.harness.request(path, {
    method,
    user: actor.user,
    headers: { 'organization-id': actor.organizationId },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Body }
}

/** An application of the actor's organization whose dev box is ready. */
export async function createReadyApplication(actor: ChatActor, prompt = 'A small test app') {
  const created = await call<{ id: string }>(actor, '/api/applications', {
    initial_prompt: prompt,
    model: 'demo',
  })
  if (created.status !== 201) throw new Error(`create failed: ${JSON.stringify(created.body)}`)
  await waitForEditorReady(actor.harness, actor.user, actor.organizationId, created.body.id)
  return created.body.id
}

/** A 5-minute JWT for the listen URL, as the web gets it. */
export async function listenToken(actor: Pick<ChatActor, 'harness' | 'user'>): Promise<string> {
  const response = await actor.harness.request('/api/auth/token', { user: actor.user })
  const body = (await response.json()) as { token: string }
  return body.token
}

export function listenUrl(
  harness: TestApp,
  applicationId: string,
  conversationId: string,
  query: Record<string, string | number> = {},
): string {
  const search = new URLSearchParams({ conversation_id: conversationId })
  for (const [key, value] of Object.entries(query)) search.set(key, String(value))
  return `http://127.0.0.1:${harness.port}/api/demo/applications/${applicationId}/listen?${search}`
}

export type ReadResult = { status: number; envelopes: StreamEnvelope[]; contentType: string }

export type ReadOptions = {
  until?: (envelope: StreamEnvelope) => boolean
  maxBytes?: number
  timeoutMs?: number
  /** Drops the connection after this long without data. */
  idleMs?: number
}

/**
 * Reads an event stream until `until` holds for an envelope, `maxBytes` were read, or the
 * timeout; then drops the connection. Only complete events count, as in a browser.
 */
/** POST …/listen of an exploration over real HTTP from seq 0, as the web's fetch stream reads it. */
export function readExplorationStream(
  actor: ChatActor,
  explorationId: string,
  until: (envelope: StreamEnvelope) => boolean,
): Promise<ReadResult> {
  return readStream(
    `http://127.0.0.1:${actor.harness.port}/api/explorations/${explorationId}/listen`,
    {
      init: {
        method: 'POST',
        headers: {
          authorization: `Bearer ${actor.user.token}`,
          'organization-id': actor.organizationId,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ last_event_id: 0 }),
      },
      until,
    },
  )
}

export async function readStream(
  url: string,
  options: ReadOptions & { init?: RequestInit } = {},
): Promise<ReadResult> {
  const controller = new AbortController()
  const response = await fetch(url, { ...options.init, signal: controller.signal })
  return readResponse(response, options, () => controller.abort())
}

/** readStream over a Response already at hand (e.g. from `app.request`). */
export async function readResponse(
  response: Response,
  options: ReadOptions = {},
  drop: () => void = () => undefined,
): Promise<ReadResult> {
  const envelopes: StreamEnvelope[] = []
  const contentType = response.headers.get('content-type') ?? ''
  if (!response.ok || !response.body) {
    await response.body?.cancel()
    return { status: response.status, envelopes, contentType }
  }
  const reader = response.body.getReader()
  const timer = setTimeout(() => void reader.cancel(), options.timeoutMs ?? 60_000)
  let idleTimer: ReturnType<typeof setTimeout> | undefined
  const parser = createSseParser()
  let bytes = 0
  try {
    for (;;) {
      if (options.idleMs !== undefined) {
        clearTimeout(idleTimer)
        idleTimer = setTimeout(() => void reader.cancel(), options.idleMs)
      }
      const { done, value } = await reader.read()
      if (done) break
      const budget = options.maxBytes === undefined ? value.length : options.maxBytes - bytes
      const piece = budget < value.length ? value.subarray(0, Math.max(0, budget)) : value
      bytes += piece.length
      let stop = false
      for (const event of parser.feed(piece)) {
        const envelope = parseStreamEnvelope(event.data)
        if (!envelope) throw new Error(`not an envelope: ${event.data}`)
        envelopes.push(envelope)
        if (options.until?.(envelope)) stop = true
      }
      if (stop || (options.maxBytes !== undefined && bytes >= options.maxBytes)) break
    }
  } finally {
    clearTimeout(timer)
    clearTimeout(idleTimer)
    await reader.cancel().catch(() => undefined)
    drop()
  }
  return { status: response.status, envelopes, contentType }
}

/** True for the closing `data-run` of a run (any status but running). */
export const isRunEnd = (envelope: StreamEnvelope): boolean =>
  envelope.chunk.type === 'data-run' &&
  (envelope.chunk as { data: { status: string } }).data.status !== 'running'

/** Every stored envelope of a conversation, in order, as the table holds them. */
export async function storedEnvelopes(
  harness: TestApp,
  conversationId: string,
): Promise<StreamEnvelope[]> {
  const events = await harness.created.conversations.store.read(
    conversationId,
    0,
    Number.MAX_SAFE_INTEGER,
    1_000_000,
  )
  return events.map((event) => ({
    seq: event.seq,
    runId: event.runId,
    chunk: JSON.parse(event.chunkText),
  }))
}

export const chunkTypes = (envelopes: StreamEnvelope[]) =>
  envelopes.map((envelope) => envelope.chunk.type)

/**
 * A test app whose Anthropic models talk to a fake Anthropic server, with a signed-up owner acting
 * in an organization of their own. `maxRetries` overrides the runs' provider retries; `listen`
 * serves the app over real HTTP (for previews and the event stream).
 */
export async function startChatHarness(
  options: { maxRetries?: number; listen?: boolean; environment?: Record<string, string> } = {},
) {
  const fake: FakeProviderServer = await startFakeAnthropic([])
  const harness = await createTestApp({
    ANTHROPIC_API_KEY: 'test-key',
    ANTHROPIC_BASE_URL: fake.baseUrl,
    ...options.environment,
  })
  if (options.maxRetries !== undefined) {
    harness.created.conversations.settings.maxRetries = options.maxRetries
  }
  if (options.listen !== false) await harness.listen()
  // The installation's admin (the setup link), so the chat tests may deploy too.
  const owner = await harness.signUpAdmin()
  const actor: ChatActor = {
    harness,
    user: owner,
    organizationId: await harness.createOrganization(owner),
  }
  return {
    fake,
    harness,
    actor,
    close: async () => {
      await harness.close()
      await fake.close()
    },
  }
}

export type ChatApplication = Awaited<ReturnType<typeof startChatHarness>> & {
  applicationId: string
}

/**
 * For a describe block: a chat harness (startChatHarness) with one ready application, started
 * before its tests and closed after them. Its fields are set once its beforeAll has run.
 */
export function setUpChatApplication(
  options: Parameters<typeof startChatHarness>[0] = {},
): ChatApplication {
  const chat = {} as ChatApplication
  beforeAll(async () => {
    Object.assign(chat, await startChatHarness(options))
    chat.applicationId = await createReadyApplication(chat.actor)
  })
  afterAll(() => chat.close())
  return chat
}

/** Sends a message to the conversation (a new one without `conversationId`); expects a 200. */
export async function sendMessage(
  chat: ChatApplication,
  input: { message: string; model: string; conversationId?: string },
) {
  const sent = await call<{ conversation_id: string; run_id: string }>(
    chat.actor,
    `/api/demo/applications/${chat.applicationId}/message`,
    {
      message: input.message,
      model: input.model,
      ...(input.conversationId ? { conversation_id: input.conversationId } : {}),
    },
  )
  expect(sent.status).toBe(200)
  return sent.body
}

/**
 * The conversation's events after `after` (without it: the history as a fresh listener loads it),
 * read until `until` holds (by default: the run's end).
 */
export async function listenToConversation(
  chat: ChatApplication,
  conversationId: string,
  options: { after?: number; until?: (envelope: StreamEnvelope) => boolean } = {},
) {
  const token = await listenToken(chat.actor)
  const query: Record<string, string | number> = { token }
  if (options.after !== undefined) query.last_event_id = options.after
  const url = listenUrl(chat.harness, chat.applicationId, conversationId, query)
  return (await readStream(url, { until: options.until ?? isRunEnd })).envelopes
}

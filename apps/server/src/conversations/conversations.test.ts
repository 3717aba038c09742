import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { applyStreamEnvelope } from '@sprout/protocol/stream/apply-stream-envelope.ts'
import { createBlocksState } from '@sprout/protocol/stream/blocks-state.ts'
import type { StreamEnvelope } from '@sprout/protocol/stream/stream-envelope.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../testing/app-harness.ts'
import {
  type ChatActor,
  call,
  chunkTypes,
  createReadyApplication,
  isRunEnd,
  listenToken,
  listenUrl,
  readStream,
  storedEnvelopes,
} from '../testing/chat-client.ts'

type Sent = { conversation_id: string; title: string; run_id: string; active_model: string }

const reduce = (envelopes: StreamEnvelope[]) =>
  envelopes.reduce(applyStreamEnvelope, createBlocksState())

describe('the builder chat with the demo model', { timeout: 180_000 }, () => {
  let harness: TestApp
  let actor: ChatActor
  let applicationId: string
  let conversationId: string

  beforeAll(async () => {
    harness = await createTestApp()
    await harness.listen()
    const owner = await harness.signUp()
    const organizationId = await harness.createOrganization(owner)
    actor = { harness, user: owner, organizationId }
    applicationId = await createReadyApplication(actor)
  })
  afterAll(() => harness.close())

  it('runs the scripted build on the dev box, streams every step and commits a checkpoint', async () => {
    const message = 'Build a recipe tracker with ingredients and ratings'
    const sent = await call<Sent>(actor, `/api/demo/applications/${applicationId}/message`, {
      message,
      model: 'demo',
      client_id: 'tab-1',
    })
    expect(sent.status).toBe(200)
    expect(sent.body).toMatchObject({
      title: 'Build a recipe tracker with ingredients',
      active_model: 'demo',
    })
    conversationId = sent.body.conversation_id

    const token = await listenToken(actor)
    const url = listenUrl(harness, applicationId, conversationId, { token, last_event_id: 0 })
    const { status, envelopes, contentType } = await readStream(url, { until: isRunEnd })
    expect(status).toBe(200)
    expect(contentType).toMatch(/^text\/event-stream/)
    expect(envelopes.map((envelope) => envelope.seq)).toEqual(
      envelopes.map((_, index) => index + 1),
    )
    expect(envelopes[0]?.chunk).toMatchObject({
      type: 'data-user-message',
      data: { text: message, clientId: 'tab-1' },
    })
    const types = chunkTypes(envelopes)
    for (const type of ['data-run', 'start', 'reasoning-delta', 'text-delta', 'data-usage']) {
      expect(types).toContain(type)
    }
    const tools = envelopes.flatMap((envelope) =>
      envelope.chunk.type === 'tool-input-available'
        ? [(envelope.chunk as { toolName: string }).toolName]
        : [],
    )
    expect(tools).toEqual(['todos', 'write_file', 'todos', 'shell_exec', 'todos'])
    const shellAt = envelopes.findIndex(
      (envelope) =>
        envelope.chunk.type === 'tool-input-available' &&
        (envelope.chunk as { toolName: string }).toolName === 'shell_exec',
    )
    expect(types.indexOf('data-tool-output-delta')).toBeGreaterThan(shellAt)
    expect(envelopes.slice(-2).map((envelope) => envelope.chunk)).toEqual([
      { type: 'finish', finishReason: 'stop' },
      { type: 'data-run', data: { runId: sent.body.run_id, status: 'finished' } },
    ])
    expect(envelopes).toEqual(await storedEnvelopes(harness, conversationId))

    const box = harness.devboxes.box(applicationId)
    if (!box) throw new Error('no dev box')
    const app = await readFile(path.join(box.workspacePath, 'src/App.tsx'), 'utf8')
    expect(app).toContain('Recipe')
    const log = await box.exec('git log -1 --format=%s && git status --porcelain', {
      timeoutSeconds: 20,
    })
    expect(log.output.trim()).toBe(message)

    const list = await call<{ id: string; title: string; last_message_at: string }[]>(
      actor,
      `/api/demo/applications/${applicationId}/conversations`,
    )
    expect(list.body).toEqual([
      expect.objectContaining({
        id: conversationId,
        title: 'Build a recipe tracker with ingredients',
        active_model: 'demo',
        last_message_at: expect.any(String),
      }),
    ])
  })

  it('loads the history compacted for a fresh listener: fewer events, the same blocks', async () => {
    const stored = await storedEnvelopes(harness, conversationId)
    const last = stored.at(-1)?.seq
    const token = await listenToken(actor)
    const { envelopes } = await readStream(
      listenUrl(harness, applicationId, conversationId, { token }),
      { until: (envelope) => envelope.seq === last },
    )
    expect(envelopes.length).toBeLessThan(stored.length / 2)
    expect(reduce(envelopes).blocks).toEqual(reduce(stored).blocks)
    const text = envelopes.filter((envelope) => envelope.chunk.type === 'text-start')
    expect(text.length).toBe(
      stored.filter((envelope) => envelope.chunk.type === 'text-start').length,
    )
  })

  it('resumes after Last-Event-ID or last_event_id with exactly the events after it', async () => {
    const stored = await storedEnvelopes(harness, conversationId)
    const last = stored.at(-1)?.seq
    const token = await listenToken(actor)
    const until = (envelope: StreamEnvelope) => envelope.seq === last
    const byHeader = await readStream(
      listenUrl(harness, applicationId, conversationId, { token }),
      {
        init: { headers: { 'last-event-id': '5' } },
        until,
      },
    )
    expect(byHeader.envelopes).toEqual(stored.slice(5))
    const byQuery = await readStream(
      listenUrl(harness, applicationId, conversationId, { token, last_event_id: 12 }),
      { until },
    )
    expect(byQuery.envelopes).toEqual(stored.slice(12))
  })

  it('lets only members of the organization listen, with a valid token', async () => {
    const token = await listenToken(actor)
    const outsider = await harness.signUp()
    const outsiderOrganization = await harness.createOrganization(outsider)
    const other: ChatActor = { harness, user: outsider, organizationId: outsiderOrganization }
    const otherApplication = await createReadyApplication(other)
    const otherSent = await call<Sent>(
      other,
      `/api/demo/applications/${otherApplication}/message`,
      {
        message: 'roll 2d6',
        model: 'demo',
      },
    )
    const otherConversation = otherSent.body.conversation_id
    const outsiderToken = await listenToken(other)
    const status = async (url: string, init?: RequestInit) =>
      (await readStream(url, { init, maxBytes: 1 })).status

    expect(await status(listenUrl(harness, applicationId, conversationId))).toBe(401)
    expect(
      await status(listenUrl(harness, applicationId, conversationId, { token: actor.user.token })),
    ).toBe(401)
    expect(
      await status(listenUrl(harness, applicationId, conversationId, { token: `${token}x` })),
    ).toBe(401)
    // Each user's token is refused for the other's conversation.
    expect(
      await status(listenUrl(harness, applicationId, conversationId, { token: outsiderToken })),
    ).toBe(404)
    expect(await status(listenUrl(harness, otherApplication, otherConversation, { token }))).toBe(
      404,
    )
    // A conversation is only reachable under its own application.
    expect(
      await status(listenUrl(harness, otherApplication, conversationId, { token: outsiderToken })),
    ).toBe(404)
    expect(
      await status(
        listenUrl(harness, otherApplication, otherConversation, { token: outsiderToken }),
      ),
    ).toBe(200)
    // Without a token the session (here the bearer header) is used.
    expect(
      await status(listenUrl(harness, applicationId, conversationId), {
        headers: { authorization: `Bearer ${actor.user.token}` },
      }),
    ).toBe(200)

    const foreign = await call(
      actor,
      `/api/demo/applications/${applicationId}/interrupt?conversation_id=${otherConversation}`,
      {},
    )
    expect(foreign.status).toBe(404)
    await harness.created.conversations.runs.settled(otherConversation)
  })

  it('checks its input, names the missing provider setting and refuses a second run', async () => {
    const base = `/api/demo/applications/${applicationId}`
    const empty = await call<{ error: string }>(actor, `${base}/message`, {
      message: '   ',
      model: 'demo',
    })
    expect(empty).toEqual({
      status: 400,
      body: { error: 'Invalid field "message": must not be empty' },
    })
    const noModel = await call<{ error: string }>(actor, `${base}/message`, { message: 'Hi' })
    expect(noModel).toEqual({ status: 400, body: { error: 'Missing field "model"' } })
    const before = await call<unknown[]>(actor, `${base}/conversations`)
    const unconfigured = await call<{ error: string }>(actor, `${base}/message`, {
      message: 'Hi',
      model: 'claude-sonnet-4-5',
    })
    expect(unconfigured.status).toBe(400)
    expect(unconfigured.body.error).toContain('ANTHROPIC_API_KEY')
    expect((await call<unknown[]>(actor, `${base}/conversations`)).body).toEqual(before.body)
    const unknown = await call(actor, `${base}/message`, {
      message: 'Hi',
      model: 'demo',
      conversation_id: 'no-such-conversation',
    })
    expect(unknown.status).toBe(404)

    const first = await call<Sent>(actor, `${base}/message`, {
      message: 'Build a habit tracker with streaks',
      model: 'demo',
    })
    const second = await call<{ error: string }>(actor, `${base}/message`, {
      message: 'And a dark mode',
      model: 'demo',
      conversation_id: first.body.conversation_id,
    })
    expect(second.status).toBe(409)
    expect(second.body.error).toMatch(/stage/i)
    const interrupt = await call(
      actor,
      `${base}/interrupt?conversation_id=${first.body.conversation_id}`,
      {},
    )
    expect(interrupt).toEqual({ status: 200, body: { interrupted: true } })
    await harness.created.conversations.runs.settled(first.body.conversation_id)
    const idle = await call(actor, `${base}/stage-message`, {
      message: 'Too late',
      conversation_id: first.body.conversation_id,
    })
    expect(idle).toEqual({ status: 200, body: { status: 'unsent' } })
    const again = await call(actor, `${base}/interrupt`, {
      conversation_id: first.body.conversation_id,
    })
    expect(again).toEqual({ status: 200, body: { interrupted: false } })
    const missing = await call<{ error: string }>(actor, `${base}/continue`, {})
    expect(missing).toEqual({
      status: 400,
      body: { error: 'Missing query parameter "conversation_id"' },
    })
  })
})

import type { FakeProviderServer } from '@sprout/agent/testing/fake-provider-server.ts'
import type { StreamEnvelope } from '@sprout/protocol/stream/stream-envelope.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../testing/app-harness.ts'
import {
  type ChatActor,
  call,
  isRunEnd,
  readExplorationStream,
  startChatHarness,
} from '../testing/chat-client.ts'

type AnthropicRequest = {
  system?: { text: string }[]
  tools?: unknown[]
  messages: { role: string; content: { text?: string }[] }[]
}

const summaryAnswer =
  'A shared reading list sounds great. Who picks the books?\n\nSummary:\nA book club app where members propose books, vote on the next read and track meeting dates.'

describe('explorations', { timeout: 60_000 }, () => {
  let fake: FakeProviderServer
  let harness: TestApp
  let actor: ChatActor

  beforeAll(async () => {
    ;({ fake, harness, actor } = await startChatHarness({ maxRetries: 0 }))
  })
  afterAll(async () => {
    await harness.close()
    await fake.close()
  })

  const listen = (
    explorationId: string,
    until: (envelope: StreamEnvelope) => boolean,
    as: ChatActor = actor,
  ) => readExplorationStream(as, explorationId, until)

  it('brainstorms without tools, streams over a POST and offers the summary', async () => {
    fake.push({ blocks: [{ type: 'text', text: summaryAnswer }] })
    const created = await call<{ id: string; title: string; run_id: string }>(
      actor,
      '/api/explorations',
      { message: 'I want an app for my book club', model: 'claude-haiku-4-5' },
    )
    expect(created.status).toBe(201)
    expect(created.body.title).toBe('I want an app for my')
    const { status, envelopes, contentType } = await listen(created.body.id, isRunEnd)
    expect(status).toBe(200)
    expect(contentType).toMatch(/^text\/event-stream/)
    const text = envelopes
      .map((envelope) => (envelope.chunk as { delta?: string }).delta ?? '')
      .join('')
    expect(text).toBe(summaryAnswer)
    expect(envelopes.at(-1)?.chunk).toMatchObject({ data: { status: 'finished' } })

    const request = fake.requests.at(-1)?.body as AnthropicRequest
    expect(request.tools ?? []).toEqual([])
    expect(request.system?.[0]?.text).toContain('figure out what web app they want to build')

    const exploration = await call<{ summary: string }>(
      actor,
      `/api/explorations/${created.body.id}`,
    )
    expect(exploration.body).toMatchObject({
      id: created.body.id,
      title: 'I want an app for my',
      active_model: 'claude-haiku-4-5',
      summary:
        'A book club app where members propose books, vote on the next read and track meeting dates.',
    })
  })

  it('takes further messages, and an interrupt stops a run', async () => {
    const created = await call<{ id: string; title: string }>(actor, '/api/explorations', {})
    expect(created.body.title).toBe('New exploration')
    fake.push({ blocks: [{ type: 'text', text: 'Let me think about that' }], holdOpen: true })
    const sent = await call(actor, `/api/explorations/${created.body.id}/message`, {
      message: 'A habit tracker for runners',
      model: 'claude-haiku-4-5',
    })
    expect(sent.body).toMatchObject({ id: created.body.id, title: 'A habit tracker for runners' })
    await listen(created.body.id, (envelope) => envelope.chunk.type === 'text-delta')
    const busy = await call(actor, `/api/explorations/${created.body.id}/message`, {
      message: 'Also for cyclists',
      model: 'claude-haiku-4-5',
    })
    expect(busy.status).toBe(409)
    const interrupted = await call(actor, `/api/explorations/${created.body.id}/interrupt`, {})
    expect(interrupted.body).toEqual({ interrupted: true })
    const { envelopes } = await listen(created.body.id, isRunEnd)
    expect(envelopes.at(-1)?.chunk).toMatchObject({ data: { status: 'interrupted' } })

    fake.push({ blocks: [{ type: 'text', text: 'Runners and cyclists it is.' }] })
    const retried = await call(actor, `/api/explorations/${created.body.id}/continue`, {})
    expect(retried.status).toBe(200)
    await harness.created.conversations.runs.settled(created.body.id)
    const request = fake.requests.at(-1)?.body as AnthropicRequest
    expect(request.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user'])
  })

  it('keeps explorations inside their organization and checks the model', async () => {
    const created = await call<{ id: string }>(actor, '/api/explorations', {})
    const outsider = await harness.signUp()
    const other: ChatActor = {
      harness,
      user: outsider,
      organizationId: await harness.createOrganization(outsider),
    }
    expect((await call(other, `/api/explorations/${created.body.id}`)).status).toBe(404)
    expect((await listen(created.body.id, () => true, other)).status).toBe(404)
    expect(
      (
        await call(other, `/api/explorations/${created.body.id}/message`, {
          message: 'Hi',
          model: 'claude-haiku-4-5',
        })
      ).status,
    ).toBe(404)
    const unconfigured = await call<{ error: string }>(actor, '/api/explorations', {
      message: 'Hi',
      model: 'gpt-5',
    })
    expect(unconfigured.status).toBe(400)
    expect(unconfigured.body.error).toContain('OPENAI_API_KEY')
    const malformed = await call<{ error: string }>(actor, '/api/explorations', { message: 5 })
    expect(malformed.status).toBe(400)
    expect(malformed.body.error).toContain('"message"')
  })
})

import { applyStreamEnvelope } from '@sprout/protocol/stream/apply-stream-envelope.ts'
import { createBlocksState } from '@sprout/protocol/stream/blocks-state.ts'
import type { StreamEnvelope } from '@sprout/protocol/stream/stream-envelope.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type ChatActor,
  call,
  createReadyApplication,
  isRunEnd,
  listenToken,
  listenUrl,
  readStream,
  startChatHarness,
} from './chat-test-client.ts'

type Sent = { conversation_id: string; run_id: string }

// Every chat error is a block of the transcript, replayed with the history
// (docs/architecture/stream-protocol.md "Resume").
describe('chat errors in the replayed history', { timeout: 120_000 }, () => {
  let chat: Awaited<ReturnType<typeof startChatHarness>>
  let actor: ChatActor
  let applicationId: string

  beforeAll(async () => {
    chat = await startChatHarness({ maxRetries: 0 })
    actor = chat.actor
    applicationId = await createReadyApplication(actor)
  })
  afterAll(async () => {
    await chat.close()
  })

  const listen = async (conversationId: string, runEnds: number, after?: number) => {
    const token = await listenToken(actor)
    const query: Record<string, string | number> = { token }
    if (after !== undefined) query.last_event_id = after
    let seen = 0
    const until = (envelope: StreamEnvelope) => isRunEnd(envelope) && ++seen === runEnds
    const url = listenUrl(chat.harness, applicationId, conversationId, query)
    return (await readStream(url, { until })).envelopes
  }

  it('keeps each failed message with its error, in order, after a reload', async () => {
    let conversationId: string | undefined
    let lastSeq = 0
    for (const status of [500, 429, 529]) {
      chat.fake.push({ status })
      const sent = await call<Sent>(actor, `/api/demo/applications/${applicationId}/message`, {
        message: `Attempt ${status}`,
        model: 'claude-sonnet-4-5',
        ...(conversationId ? { conversation_id: conversationId } : {}),
      })
      expect(sent.status).toBe(200)
      conversationId = sent.body.conversation_id
      lastSeq = (await listen(conversationId, 1, lastSeq)).at(-1)?.seq ?? lastSeq
    }
    if (!conversationId) throw new Error('no conversation')

    // A reload: no last event id, so the compacted history is replayed from the start.
    const replayed = await listen(conversationId, 3)
    const state = replayed.reduce(applyStreamEnvelope, createBlocksState())
    expect(state.blocks.map((block) => [block.type, block.errorType ?? block.content])).toEqual([
      ['text', 'Attempt 500'],
      ['error', 'internal'],
      ['text', 'Attempt 429'],
      ['error', 'ratelimited'],
      ['text', 'Attempt 529'],
      ['error', 'overloaded'],
    ])
    expect(state.isRunning).toBe(false)
  })
})

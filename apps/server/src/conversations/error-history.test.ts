import { applyStreamEnvelope } from '@sprout/protocol/stream/apply-stream-envelope.ts'
import { createBlocksState } from '@sprout/protocol/stream/blocks-state.ts'
import type { StreamEnvelope } from '@sprout/protocol/stream/stream-envelope.ts'
import { describe, expect, it } from 'vitest'
import {
  call,
  isRunEnd,
  listenToConversation,
  setUpChatApplication,
} from '../testing/chat-client.ts'

type Sent = { conversation_id: string; run_id: string }

// Every chat error is a block of the transcript, replayed with the history
// (docs/architecture/stream-protocol.md "Resume").
describe('chat errors in the replayed history', { timeout: 120_000 }, () => {
  const chat = setUpChatApplication({ maxRetries: 0 })

  const listen = (conversationId: string, runEnds: number, after?: number) => {
    let seen = 0
    const until = (envelope: StreamEnvelope) => isRunEnd(envelope) && ++seen === runEnds
    return listenToConversation(chat, conversationId, { after, until })
  }

  it('keeps each failed message with its error, in order, after a reload', async () => {
    let conversationId: string | undefined
    let lastSeq = 0
    for (const status of [500, 429, 529]) {
      chat.fake.push({ status })
      const sent = await call<Sent>(
        chat.actor,
        `/api/demo/applications/${chat.applicationId}/message`,
        {
          message: `Attempt ${status}`,
          model: 'claude-sonnet-4-5',
          ...(conversationId ? { conversation_id: conversationId } : {}),
        },
      )
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

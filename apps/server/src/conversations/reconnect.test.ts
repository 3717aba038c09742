import type { FakeBlock, FakeTurn } from '@sprout/agent/testing/fake-provider-script.ts'
import type { StreamEnvelope } from '@sprout/protocol/stream/stream-envelope.ts'
import { describe, expect, it } from 'vitest'
import {
  call,
  isRunEnd,
  listenToken,
  listenUrl,
  readStream,
  setUpChatApplication,
  storedEnvelopes,
} from '../testing/chat-client.ts'

/** A seeded generator, so a failure replays the same cuts. */
function seededRandom(seed: number) {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0
    return state / 2 ** 32
  }
}

const reconnects = 1_000

/** One model step: reasoning, many text parts streamed slowly, then a tool call (or the end). */
function step(number: number, last: boolean): FakeTurn {
  const texts: FakeBlock[] = Array.from({ length: 30 }, (_, index) => ({
    type: 'text',
    text: `Step ${number}, part ${index}: ${'the quick brown fox — ünïcödé ✓ '.repeat(2)}`,
  }))
  return {
    blocks: [
      { type: 'thinking', text: `Planning step ${number} carefully.` },
      ...texts,
      ...(last ? [] : [{ type: 'tool-call' as const, name: 'get_time', input: {} }]),
    ],
    eventDelayMs: 2,
  }
}

describe('listen: no event lost or doubled across dropped connections', {
  timeout: 300_000,
}, () => {
  const chat = setUpChatApplication()

  it(`reassembles the stored stream after ${reconnects} cuts at random points of a long run`, async () => {
    // Steps are added while the client reconnects, so the run lasts as long as the cuts do.
    let pushed = 0
    const keepRunning = () => {
      const consumed = chat.fake.requests.length - requestsBefore
      while (pushed - consumed < 2) chat.fake.push(step(++pushed, false))
    }
    const requestsBefore = chat.fake.requests.length
    keepRunning()
    const sent = await call<{ conversation_id: string }>(
      chat.actor,
      `/api/demo/applications/${chat.applicationId}/message`,
      { message: 'Write a long story', model: 'claude-sonnet-4-5' },
    )
    const conversationId = sent.body.conversation_id
    const token = await listenToken(chat.actor)
    const random = seededRandom(20_261_122)
    const received: StreamEnvelope[] = []
    let lastSeq = 0
    let cutsDuringRun = 0
    for (let attempt = 0; attempt < reconnects; attempt++) {
      keepRunning()
      const running = chat.harness.created.conversations.runs.activeRunCount() > 0
      // Mostly mid-event cuts, sometimes after several whole events.
      const maxBytes = 1 + Math.floor(random() ** 2 * 800)
      const { status, envelopes } = await readStream(
        listenUrl(chat.harness, chat.applicationId, conversationId, {
          token,
          last_event_id: lastSeq,
        }),
        { maxBytes, idleMs: 1_000 },
      )
      expect(status).toBe(200)
      for (const envelope of envelopes) {
        received.push(envelope)
        lastSeq = envelope.seq
      }
      if (running) cutsDuringRun++
    }
    chat.fake.push(step(++pushed, true))
    await chat.harness.created.conversations.runs.settled(conversationId)
    const stored = await storedEnvelopes(chat.harness, conversationId)
    const rest = await readStream(
      listenUrl(chat.harness, chat.applicationId, conversationId, {
        token,
        last_event_id: lastSeq,
      }),
      { until: (envelope) => envelope.seq === stored.at(-1)?.seq, idleMs: 2_000 },
    )
    received.push(...rest.envelopes)

    expect(cutsDuringRun).toBe(reconnects)
    expect(stored.length).toBeGreaterThan(1_000)
    expect(received.map((envelope) => envelope.seq)).toEqual(stored.map((envelope) => envelope.seq))
    expect(received).toEqual(stored)
    expect(stored.filter(isRunEnd).map((envelope) => envelope.chunk)).toEqual([
      { type: 'data-run', data: { runId: expect.any(String), status: 'finished' } },
    ])
    // Every cut connection let go of its place in the hub.
    await expect.poll(() => chat.harness.created.conversations.hub.stats().listeners).toBe(0)
  })
})

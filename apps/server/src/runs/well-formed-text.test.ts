import type { StreamEnvelope } from '@sprout/protocol/stream/stream-envelope.ts'
import { describe, expect, it } from 'vitest'
import {
  listenToConversation,
  sendMessage,
  setUpChatApplication,
  storedEnvelopes,
} from '../testing/chat-client.ts'
import { loadHistory } from './conversation-records.ts'

type AnthropicRequest = { messages: { role: string; content: { text?: string }[] }[] }

const model = 'claude-sonnet-4-5'
const loneSurrogate = '\uD83D'

/**
 * jsonb refuses lone UTF-16 surrogates and NUL. Text holding them, from a tool's output cut
 * through an emoji or from the model itself, must not end the run that stores it.
 */
describe('text that jsonb would refuse', { timeout: 120_000 }, () => {
  const chat = setUpChatApplication({ maxRetries: 0 })
  const send = (message: string, conversationId?: string) =>
    sendMessage(chat, { message, model, conversationId })
  const listen = (conversationId: string, after: number) =>
    listenToConversation(chat, conversationId, { after })

  const chunksOfType = (envelopes: StreamEnvelope[], type: string) =>
    envelopes.filter((envelope) => envelope.chunk.type === type).map((envelope) => envelope.chunk)

  /** Every string in the stored events is well-formed and free of NUL. */
  const expectStorable = (envelopes: StreamEnvelope[]) => {
    const text = JSON.stringify(envelopes.map((envelope) => envelope.chunk))
    expect(text).not.toMatch(/\\u0000|\\ud[89a-f]/i)
  }

  it('stores a search result whose line was cut at an emoji', async () => {
    chat.fake.push(
      {
        blocks: [
          {
            type: 'tool-call',
            name: 'write_file',
            input: { path: 'emoji.txt', content: `${'a'.repeat(299)}😀 tail\n` },
          },
        ],
      },
      { blocks: [{ type: 'tool-call', name: 'search', input: { pattern: 'tail' } }] },
      { blocks: [{ type: 'text', text: 'Found it.' }] },
    )
    const sent = await send('Write the emoji file and find its tail')
    const live = await listen(sent.conversation_id, 0)
    expect(live.at(-1)?.chunk).toEqual({
      type: 'data-run',
      data: { runId: sent.run_id, status: 'finished' },
    })
    const outputs = chunksOfType(live, 'tool-output-available').map(
      (chunk) => (chunk as { output: string }).output,
    )
    expect(outputs[1]).toContain(`emoji.txt:1: ${'a'.repeat(299)}`)
    expect(outputs[1]?.isWellFormed()).toBe(true)
    expect(outputs[1]).not.toContain('\uFFFD')
    expectStorable(live)
    expect(await storedEnvelopes(chat.harness, sent.conversation_id)).toEqual(live)
    expect(await listen(sent.conversation_id, 0)).toEqual(live)
    const history = await loadHistory(chat.harness.database.db, sent.conversation_id)
    expect(history.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ])
  })

  it('stores the model’s own lone surrogate and NUL as U+FFFD, and the next run reads them back', async () => {
    chat.fake.push({ blocks: [{ type: 'text', text: `Broken ${loneSurrogate} and\0 done.` }] })
    const sent = await send('Say something odd')
    const live = await listen(sent.conversation_id, 0)
    expect(live.at(-1)?.chunk).toEqual({
      type: 'data-run',
      data: { runId: sent.run_id, status: 'finished' },
    })
    const text = chunksOfType(live, 'text-delta')
      .map((chunk) => (chunk as { delta: string }).delta)
      .join('')
    expect(text).toBe('Broken \uFFFD and\uFFFD done.')
    expectStorable(live)
    expect(await storedEnvelopes(chat.harness, sent.conversation_id)).toEqual(live)
    expect(await listen(sent.conversation_id, 0)).toEqual(live)

    chat.fake.push({ blocks: [{ type: 'text', text: 'Still here.' }] })
    const next = await send('And now?', sent.conversation_id)
    const after = await listen(sent.conversation_id, live.at(-1)?.seq ?? 0)
    expect(after.at(-1)?.chunk).toEqual({
      type: 'data-run',
      data: { runId: next.run_id, status: 'finished' },
    })
    const request = chat.fake.requests.at(-1)?.body as AnthropicRequest
    const assistant = request.messages.find((message) => message.role === 'assistant')
    expect(assistant?.content.map((part) => part.text).join('')).toBe(
      'Broken \uFFFD and\uFFFD done.',
    )
  })
})

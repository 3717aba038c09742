import type { PreviewSelection } from '@sprout/protocol/api/preview-selections.ts'
import type { StreamEnvelope } from '@sprout/protocol/stream/stream-envelope.ts'
import { describe, expect, it } from 'vitest'
import { call, listenToConversation, setUpChatApplication } from '../testing/chat-client.ts'
import { loadHistory } from './conversation-records.ts'

// Elements pointed at in the preview's Select mode (docs/product/builder.md "Select mode").

type Sent = { conversation_id: string; run_id: string }

const button: PreviewSelection = {
  file: 'src/components/GuestList.tsx',
  line: 14,
  column: 7,
  tag: 'button',
  snippet: '<button class="rounded bg-emerald-600">Sign the book</button>',
}

describe('selections sent with a builder message', { timeout: 120_000 }, () => {
  const chat = setUpChatApplication({ maxRetries: 0 })
  const post = (body: Record<string, unknown>) =>
    call<Sent & { error?: string }>(
      chat.actor,
      `/api/demo/applications/${chat.applicationId}/message`,
      body,
    )
  const conversationCount = async () => {
    const { rows } = await chat.harness.database.execute(
      'select count(*)::int as count from conversations',
    )
    return Number(rows[0]?.count)
  }
  const textOf = (envelopes: StreamEnvelope[]) =>
    envelopes
      .map((envelope) => (envelope.chunk.type === 'text-delta' ? envelope.chunk.delta : ''))
      .join('')

  it('refuses a selection outside the app, malformed or too long with a 400 and starts nothing', async () => {
    const before = await conversationCount()
    const refused = [
      { ...button, file: '../secrets.env' },
      { ...button, file: '/etc/passwd' },
      { ...button, file: 'src/a\u0000.tsx' },
      { ...button, file: 'src\\App.tsx' },
      { ...button, line: 0 },
      { ...button, line: 1.5 },
      { ...button, tag: 'Button' },
      { ...button, tag: '<script>' },
      { ...button, snippet: 'x'.repeat(301) },
      { ...button, file: `src/${'a'.repeat(300)}.tsx` },
    ]
    for (const selection of refused) {
      const answer = await post({ message: 'Fix this', model: 'demo', selections: [selection] })
      expect(answer.status, JSON.stringify(selection).slice(0, 80)).toBe(400)
      expect(answer.body.error).toMatch(/selections/)
    }
    const tooMany = await post({
      message: 'Fix these',
      model: 'demo',
      selections: Array.from({ length: 5 }, (_, index) => ({ ...button, line: index + 1 })),
    })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.error).toMatch(/at most 4 selections/)
    expect(await conversationCount()).toBe(before)
  })

  it('gives the agent the location and snippet after the text, keeps them with the message, and the Demo echoes them', async () => {
    const sent = await post({ message: 'Make this bigger', model: 'demo', selections: [button] })
    expect(sent.status).toBe(200)
    const envelopes = await listenToConversation(chat, sent.body.conversation_id)
    const echo = envelopes.find((envelope) => envelope.chunk.type === 'data-user-message')
    expect(echo?.chunk).toMatchObject({ data: { text: 'Make this bigger', selections: [button] } })
    expect(textOf(envelopes)).toBe(
      'You pointed at the <button> in src/components/GuestList.tsx:14.',
    )
    const history = await loadHistory(chat.harness.database.db, sent.body.conversation_id)
    expect(history[0]).toEqual({
      role: 'user',
      content:
        'Make this bigger\n\nThe user selected in the preview:\n' +
        '- <button> at src/components/GuestList.tsx:14 — <button class="rounded bg-emerald-600">Sign the book</button>',
    })
  })
})

// Long file: the runs' behaviour over real HTTP against one harness, one scenario per test.
import { readdir, readFile, readlink } from 'node:fs/promises'
import type { StreamEnvelope } from '@sprout/protocol/stream/stream-envelope.ts'
import { describe, expect, it } from 'vitest'
import {
  call,
  chunkTypes,
  createReadyApplication,
  isRunEnd,
  listenToConversation,
  sendMessage,
  setUpChatApplication,
  storedEnvelopes,
} from '../testing/chat-client.ts'
import { loadHistory } from './conversation-records.ts'

type Sent = { conversation_id: string; run_id: string }
type AnthropicRequest = {
  messages: { role: string; content: { type: string; text?: string }[] }[]
}

const model = 'claude-sonnet-4-5'

describe('agent runs against a fake Anthropic server', { timeout: 120_000 }, () => {
  const chat = setUpChatApplication({ maxRetries: 0 })
  const base = () => `/api/demo/applications/${chat.applicationId}`
  const send = (message: string, conversationId?: string) =>
    sendMessage(chat, { message, model, conversationId })
  /** Listens from `after` until `until` holds (by default: the run's closing data-run). */
  const listen = (
    conversationId: string,
    after: number,
    until?: (envelope: StreamEnvelope) => boolean,
  ) => listenToConversation(chat, conversationId, { after, until })

  const ofType = (envelopes: StreamEnvelope[], type: string) =>
    envelopes.filter((envelope) => envelope.chunk.type === type).map((envelope) => envelope.chunk)

  it('uses tools over several steps, stores the history and the events', async () => {
    chat.fake.push(
      {
        blocks: [
          { type: 'thinking', text: 'A page needs an App component.' },
          { type: 'text', text: 'Writing the page.' },
          {
            type: 'tool-call',
            name: 'write_file',
            input: { path: 'src/Hello.tsx', content: 'export const hello = 1\n' },
          },
        ],
      },
      {
        blocks: [
          { type: 'tool-call', name: 'shell_exec', input: { command: 'cat src/Hello.tsx' } },
        ],
      },
      { blocks: [{ type: 'text', text: 'Your page is ready.' }] },
    )
    const requestsBefore = chat.fake.requests.length
    const sent = await send('Make a hello page')
    const envelopes = await listen(sent.conversation_id, 0)
    expect(chat.fake.requests.length - requestsBefore).toBe(3)
    expect(
      ofType(envelopes, 'tool-output-available').map(
        (chunk) => (chunk as { output: unknown }).output,
      ),
    ).toEqual(['Wrote src/Hello.tsx (2 lines).', 'export const hello = 1\n[exit code 0]'])
    expect(chunkTypes(envelopes)).toContain('reasoning-delta')
    expect(envelopes.at(-1)?.chunk).toEqual({
      type: 'data-run',
      data: { runId: sent.run_id, status: 'finished' },
    })
    const box = chat.harness.devboxes.box(chat.applicationId)
    expect(await box?.files.read('src/Hello.tsx')).toBe('export const hello = 1\n')
    const history = await loadHistory(chat.harness.database.db, sent.conversation_id)
    expect(history.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ])
    expect(await storedEnvelopes(chat.harness, sent.conversation_id)).toEqual(envelopes)
  })

  for (const [status, errorType] of [
    [429, 'ratelimited'],
    [529, 'overloaded'],
    [500, 'internal'],
  ] as const) {
    it(`reports a provider ${status} as ${errorType}, and continue retries the run`, async () => {
      chat.fake.push({ status })
      const sent = await send(`Please answer despite the ${status}`)
      const failed = await listen(sent.conversation_id, 0)
      const errors = ofType(failed, 'data-error') as { data: { errorType: string } }[]
      expect(errors.map((chunk) => chunk.data.errorType)).toEqual([errorType])
      expect(failed.at(-1)?.chunk).toMatchObject({ data: { status: 'failed' } })
      expect(chunkTypes(failed)).toContain('finish')

      chat.fake.push({ blocks: [{ type: 'text', text: 'Here is the answer.' }] })
      const lastSeq = failed.at(-1)?.seq ?? 0
      const retried = await call<{ run_id: string }>(
        chat.actor,
        `${base()}/continue?conversation_id=${sent.conversation_id}`,
        {},
      )
      expect(retried.status).toBe(200)
      const after = await listen(sent.conversation_id, lastSeq)
      expect(after.at(0)?.chunk).toEqual({
        type: 'data-run',
        data: { runId: retried.body.run_id, status: 'running' },
      })
      expect(after.at(-1)?.chunk).toMatchObject({ data: { status: 'finished' } })
      const request = chat.fake.requests.at(-1)?.body as AnthropicRequest
      expect(request.messages.at(-1)?.content.at(-1)?.text).toBe(
        `Please answer despite the ${status}`,
      )
    })
  }

  it('fails the POST and closes the run when the user message cannot be stored', async () => {
    chat.fake.push({ blocks: [{ type: 'text', text: 'Noted.' }] })
    const first = await send('Remember this')
    const after = (await listen(first.conversation_id, 0)).at(-1)?.seq ?? 0
    const historyBefore = await loadHistory(chat.harness.database.db, first.conversation_id)
    // A real failure of the history write, for one message text only.
    await chat.harness.database.execute(`
      create or replace function refuse_poison() returns trigger language plpgsql as $$
      begin
        if new.message->>'content' = 'Poison' then raise exception 'disk full'; end if;
        return new;
      end $$`)
    await chat.harness.database.execute(`
      create trigger refuse_poison before insert on messages
        for each row execute function refuse_poison()`)
    try {
      const poisoned = await call(chat.actor, `${base()}/message`, {
        message: 'Poison',
        model,
        conversation_id: first.conversation_id,
      })
      expect(poisoned.status).toBe(500)
      await chat.harness.created.conversations.runs.settled(first.conversation_id)
      const envelopes = await listen(first.conversation_id, after)
      expect(envelopes.at(-1)?.chunk).toMatchObject({ data: { status: 'failed' } })
      expect(ofType(envelopes, 'data-error').at(-1)).toEqual({
        type: 'data-error',
        data: { error: 'The run could not start.', errorType: 'internal' },
      })
      expect(await loadHistory(chat.harness.database.db, first.conversation_id)).toEqual(
        historyBefore,
      )
    } finally {
      await chat.harness.database.execute('drop trigger refuse_poison on messages')
      await chat.harness.database.execute('drop function refuse_poison()')
    }
    // Nothing is left running: the next message starts a run.
    chat.fake.push({ blocks: [{ type: 'text', text: 'Back again.' }] })
    await send('Are you there?', first.conversation_id)
    await chat.harness.created.conversations.runs.settled(first.conversation_id)
  })

  it('keeps the history whole when the run ends before its user message is stored', async () => {
    // The provider fails at once while the user message's insert is still under way: on
    // PostgreSQL the run's end must wait for it instead of racing it with its own history.
    await chat.harness.database.execute(`
      create or replace function slow_store() returns trigger language plpgsql as $$
      begin
        if new.message->>'content' = 'Slow to store' then perform pg_sleep(0.3); end if;
        return new;
      end $$`)
    await chat.harness.database.execute(`
      create trigger slow_store before insert on messages
        for each row execute function slow_store()`)
    try {
      chat.fake.push({ status: 529 })
      const sent = await send('Slow to store')
      const failed = await listen(sent.conversation_id, 0)
      const errors = ofType(failed, 'data-error') as { data: { errorType: string } }[]
      expect(errors.map((chunk) => chunk.data.errorType)).toEqual(['overloaded'])
      await chat.harness.created.conversations.runs.settled(sent.conversation_id)
      const history = await loadHistory(chat.harness.database.db, sent.conversation_id)
      expect(history[0]).toEqual({ role: 'user', content: 'Slow to store' })
    } finally {
      await chat.harness.database.execute('drop trigger slow_store on messages')
      await chat.harness.database.execute('drop function slow_store()')
    }
  })

  it('interrupts a provider stream that is held open', async () => {
    chat.fake.push({
      blocks: [{ type: 'text', text: 'Thinking out loud about it' }],
      holdOpen: true,
    })
    const sent = await send('Take your time')
    await listen(sent.conversation_id, 0, (envelope) => envelope.chunk.type === 'text-delta')
    const started = Date.now()
    const interrupted = await call(
      chat.actor,
      `${base()}/interrupt?conversation_id=${sent.conversation_id}`,
      {},
    )
    expect(interrupted.body).toEqual({ interrupted: true })
    await chat.harness.created.conversations.runs.settled(sent.conversation_id)
    // Ended by the interrupt, long before the held stream or the sleep would end; its latency is
    // measured, not asserted: a loaded machine took 0.6–0.8 s (docs/performance.md "CI time").
    expect(Date.now() - started).toBeLessThan(10_000)
    const envelopes = await listen(sent.conversation_id, 0)
    expect(envelopes.at(-1)?.chunk).toMatchObject({ data: { status: 'interrupted' } })
    expect(ofType(envelopes, 'data-error')).toEqual([
      { type: 'data-error', data: { error: 'User interrupted', errorType: 'interrupt' } },
    ])
    expect(chunkTypes(envelopes)).toContain('abort')
  })

  it('lets a retry clicked right after an interrupt start a new run', async () => {
    chat.fake.push(
      { blocks: [{ type: 'text', text: 'A long answer' }], holdOpen: true },
      { blocks: [{ type: 'text', text: 'Picked up again.' }] },
    )
    const sent = await send('Go slowly')
    await listen(sent.conversation_id, 0, (envelope) => envelope.chunk.type === 'text-delta')
    await call(chat.actor, `${base()}/interrupt?conversation_id=${sent.conversation_id}`, {})
    // No wait for the run to close: the click on '(click to retry)' can come this fast.
    const retried = await call(
      chat.actor,
      `${base()}/continue?conversation_id=${sent.conversation_id}`,
      {},
    )
    expect(retried.status).toBe(200)
    await chat.harness.created.conversations.runs.settled(sent.conversation_id)
  })

  it('lets a new message sent right after an interrupt start a new run', async () => {
    chat.fake.push(
      { blocks: [{ type: 'text', text: 'Another long answer' }], holdOpen: true },
      { blocks: [{ type: 'text', text: 'On it.' }] },
    )
    const sent = await send('Go slowly again')
    await listen(sent.conversation_id, 0, (envelope) => envelope.chunk.type === 'text-delta')
    await call(chat.actor, `${base()}/interrupt?conversation_id=${sent.conversation_id}`, {})
    const next = await call(chat.actor, `${base()}/message`, {
      message: 'Do something else',
      model,
      conversation_id: sent.conversation_id,
    })
    expect(next.status).toBe(200)
    await chat.harness.created.conversations.runs.settled(sent.conversation_id)
  })

  it('interrupts a running `sleep 30` and kills it', async () => {
    chat.fake.push({
      blocks: [
        { type: 'tool-call', name: 'shell_exec', input: { command: 'sleep 30', timeout: 60 } },
      ],
    })
    const sent = await send('Wait for a while')
    await listen(
      sent.conversation_id,
      0,
      (envelope) => envelope.chunk.type === 'tool-input-available',
    )
    const box = chat.harness.devboxes.box(chat.applicationId)
    if (!box) throw new Error('no dev box')
    const sleeping = async () => {
      const found: number[] = []
      for (const entry of await readdir('/proc')) {
        if (!/^\d+$/.test(entry)) continue
        try {
          const commandLine = await readFile(`/proc/${entry}/cmdline`, 'utf8')
          const cwd = await readlink(`/proc/${entry}/cwd`)
          // Sandboxed, the workspace is seen at /home/sprout/app (docs/architecture/devbox.md).
          const inBox = cwd === box.workspacePath || cwd === '/home/sprout/app'
          if (commandLine.startsWith('sleep\u000030') && inBox) {
            found.push(Number(entry))
          }
        } catch {}
      }
      return found
    }
    for (let attempt = 0; attempt < 100 && (await sleeping()).length === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect((await sleeping()).length).toBeGreaterThan(0)
    const started = Date.now()
    await call(chat.actor, `${base()}/interrupt?conversation_id=${sent.conversation_id}`, {})
    await chat.harness.created.conversations.runs.settled(sent.conversation_id)
    // Ended by the interrupt, long before the held stream or the sleep would end; its latency is
    // measured, not asserted: a loaded machine took 0.6–0.8 s (docs/performance.md "CI time").
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(await sleeping()).toEqual([])
    const envelopes = await listen(sent.conversation_id, 0)
    expect(envelopes.at(-1)?.chunk).toMatchObject({ data: { status: 'interrupted' } })
  })

  it('delivers messages staged during a run once each, in order; one staged at the end is handed back', async () => {
    chat.fake.push(
      {
        blocks: [
          { type: 'text', text: 'Checking the time first.' },
          { type: 'tool-call', name: 'get_time', input: {} },
        ],
        eventDelayMs: 250,
      },
      {
        blocks: [{ type: 'text', text: 'Footer added, in green, with a logo.' }],
        eventDelayMs: 250,
      },
    )
    const sent = await send('Add a footer')
    const conversationId = sent.conversation_id
    await listen(conversationId, 0, (envelope) => envelope.chunk.type === 'text-delta')
    const stage = (message: string, clientId: string) =>
      call<{ status: string }>(chat.actor, `${base()}/stage-message`, {
        message,
        conversation_id: conversationId,
        client_id: clientId,
      })
    const pendingCount = async () => {
      const { rows } = await chat.harness.database.execute(
        `select count(*)::int as count from staged_messages where conversation_id = $1`,
        [conversationId],
      )
      return Number(rows[0]?.count)
    }
    // One after the other, so that their order is known.
    const answers: Promise<{ status: number; body: { status: string } }>[] = []
    for (const [index, text] of ['Make it green', 'Add a logo', 'And a link'].entries()) {
      answers.push(stage(text, `staged-${index}`))
      while ((await pendingCount()) < index + 1) await new Promise((r) => setTimeout(r, 10))
    }
    expect((await Promise.all(answers)).map((answer) => answer.body.status)).toEqual([
      'sent',
      'sent',
      'sent',
    ])
    // Staged while the model gives its final answer: no step is left to take it.
    const late = await stage('One more thing', 'staged-late')
    expect(late.body.status).toBe('unsent')
    // The second step's request carries them after the tool result, in order.
    const request = chat.fake.requests.at(-1)?.body as AnthropicRequest
    expect(request.messages.at(-1)?.content.map((part) => part.text ?? part.type)).toEqual([
      'tool_result',
      'Make it green',
      'Add a logo',
      'And a link',
    ])

    const envelopes = await listen(
      conversationId,
      0,
      (envelope) =>
        envelope.chunk.type === 'data-staged' &&
        (envelope.chunk as { data: { status: string } }).data.status === 'unsent',
    )
    const userMessages = ofType(envelopes, 'data-user-message').map(
      (chunk) => (chunk as { data: { text: string } }).data.text,
    )
    expect(userMessages).toEqual(['Add a footer', 'Make it green', 'Add a logo', 'And a link'])
    const staged = ofType(envelopes, 'data-staged').map(
      (chunk) => (chunk as { data: unknown }).data,
    )
    expect(staged).toEqual([
      { id: 'staged-0', status: 'sent', text: 'Make it green' },
      { id: 'staged-1', status: 'sent', text: 'Add a logo' },
      { id: 'staged-2', status: 'sent', text: 'And a link' },
      { id: 'staged-late', status: 'unsent', text: 'One more thing' },
    ])
    const types = chunkTypes(envelopes)
    expect(types.lastIndexOf('finish')).toBeLessThan(types.lastIndexOf('data-staged'))
    const history = await loadHistory(chat.harness.database.db, conversationId)
    expect(JSON.stringify(history)).not.toContain('One more thing')
  })
  it('takes a queued message back on Escape, so the run never sees it', async () => {
    chat.fake.push(
      {
        blocks: [
          { type: 'text', text: 'Looking at the clock.' },
          { type: 'tool-call', name: 'get_time', input: {} },
        ],
        eventDelayMs: 300,
      },
      { blocks: [{ type: 'text', text: 'Done.' }], eventDelayMs: 50 },
    )
    const sent = await send('What time is it?')
    const conversationId = sent.conversation_id
    await listen(conversationId, 0, (envelope) => envelope.chunk.type === 'text-delta')
    const staged = call<{ status: string }>(chat.actor, `${base()}/stage-message`, {
      message: 'Never mind this',
      conversation_id: conversationId,
      client_id: 'take-back',
    })
    for (;;) {
      const { rows } = await chat.harness.database.execute(
        `select count(*)::int as count from staged_messages where client_id = 'take-back'`,
      )
      if (Number(rows[0]?.count) > 0) break
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    const cancelled = await call<{ status: string }>(
      chat.actor,
      `${base()}/stage-message?conversation_id=${conversationId}&client_id=take-back`,
      undefined,
      'DELETE',
    )
    expect(cancelled).toEqual({ status: 200, body: { status: 'unsent' } })
    const incomplete = await call<{ error: string }>(
      chat.actor,
      `${base()}/stage-message?conversation_id=${conversationId}`,
      undefined,
      'DELETE',
    )
    expect(incomplete).toEqual({ status: 400, body: { error: 'Missing field "client_id"' } })
    expect((await staged).body.status).toBe('unsent')
    await listen(conversationId, 0, isRunEnd)
    expect(JSON.stringify(chat.fake.requests.map((request) => request.body))).not.toContain(
      'Never mind this',
    )
  })
  it('stops a running agent when its application is deleted, and keeps none of its conversations', async () => {
    const doomed = await createReadyApplication(chat.actor, 'An app to delete')
    chat.fake.push({ blocks: [{ type: 'text', text: 'Working on it' }], holdOpen: true })
    const requestsBefore = chat.fake.requests.length
    const sent = await call<Sent>(chat.actor, `/api/demo/applications/${doomed}/message`, {
      message: 'Build it',
      model,
    })
    const conversationId = sent.body.conversation_id
    while (chat.fake.requests.length === requestsBefore) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    expect(chat.harness.created.conversations.runs.activeRunCount()).toBe(1)
    const removed = await call(chat.actor, `/api/applications/${doomed}`, undefined, 'DELETE')
    expect(removed.status).toBe(200)
    expect(chat.harness.created.conversations.runs.activeRunCount()).toBe(0)
    const { rows } = await chat.harness.database.execute(
      'select count(*)::int as count from conversations where id = $1',
      [conversationId],
    )
    expect(Number(rows[0]?.count)).toBe(0)
  })
})

import type { FakeProviderServer } from '@sprout/agent/testing/fake-provider-server.ts'
import type { StreamEnvelope } from '@sprout/protocol/stream/stream-envelope.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../app.ts'
import type { TestApp } from '../testing/app-harness.ts'
import {
  type ChatActor,
  call,
  createReadyApplication,
  isRunEnd,
  readResponse,
  startChatHarness,
} from '../testing/chat-client.ts'
import { RESTART_ERROR_MESSAGE } from './close-run.ts'

type Sent = { conversation_id: string; run_id: string }

/** The secret createTestApp signs sessions with: another process of the same installation. */
const testAuthSecret = 'test-secret-test-secret-test-secret-0123'

describe('runs seen from another server process', { timeout: 120_000 }, () => {
  let fake: FakeProviderServer
  let harness: TestApp
  let actor: ChatActor
  let applicationId: string
  const others: ReturnType<typeof createApp>[] = []

  /** Another server process on the same database (PGlite: the same handle; LISTEN works alike). */
  const startOtherProcess = async (settings: { heartbeatMs?: number; staleAfterMs?: number }) => {
    const other = createApp({
      config: harness.config,
      database: harness.database,
      authSecret: testAuthSecret,
      devboxes: harness.devboxes,
      vaultKeyring: harness.created.vault.keyring,
    })
    Object.assign(other.conversations.settings, { maxRetries: 0, ...settings })
    await other.leadership.start()
    await other.conversations.start()
    others.push(other)
    return other
  }

  const request = (
    app: ReturnType<typeof createApp>['app'],
    path: string,
    init: RequestInit = {},
  ) =>
    app.request(path, {
      ...init,
      headers: {
        authorization: `Bearer ${actor.user.token}`,
        'organization-id': actor.organizationId,
        'content-type': 'application/json',
        origin: harness.config.publicUrl,
      },
    })

  const listen = async (
    app: ReturnType<typeof createApp>['app'],
    conversationId: string,
    until: (envelope: StreamEnvelope) => boolean,
  ) => {
    const response = await request(
      app,
      `/api/demo/applications/${applicationId}/listen?conversation_id=${conversationId}&last_event_id=0`,
    )
    return (await readResponse(response, { until })).envelopes
  }

  /** Waits until a chunk of the type is stored. */
  const storedChunk = async (conversationId: string, type: string) => {
    for (let attempt = 0; attempt < 400; attempt++) {
      const { rows } = await harness.database.execute(
        `select count(*)::int as count from conversation_events
         where conversation_id = $1 and chunk->>'type' = $2`,
        [conversationId, type],
      )
      if (Number(rows[0]?.count) > 0) return
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    throw new Error(`no ${type} stored`)
  }

  const runRow = async (runId: string) => {
    const { rows } = await harness.database.execute(
      'select status, error from runs where id = $1',
      [runId],
    )
    return rows[0]
  }

  /** Waits until the run's last heartbeat is `ageMs` old, by the database's clock. */
  const waitForStaleRun = async (runId: string, ageMs: number) => {
    for (let attempt = 0; attempt < 500; attempt++) {
      const { rows } = await harness.database.execute(
        `select heartbeat_at <= now() - make_interval(secs => $2) as stale from runs where id = $1`,
        [runId, ageMs / 1000],
      )
      if (rows[0]?.stale === true) return
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    throw new Error('the run never went stale')
  }

  beforeAll(async () => {
    ;({ fake, harness, actor } = await startChatHarness({ maxRetries: 0, listen: false }))
    applicationId = await createReadyApplication(actor)
  })
  afterAll(async () => {
    for (const other of others) {
      await other.conversations.stop()
      await other.leadership.stop()
    }
    await harness.close()
    await fake.close()
  })

  it('streams a run of one process to a listener of another, and interrupts it from there', async () => {
    const other = await startOtherProcess({})
    fake.push({ blocks: [{ type: 'text', text: 'A long answer, held open' }], holdOpen: true })
    const sent = await call<Sent>(actor, `/api/demo/applications/${applicationId}/message`, {
      message: 'Tell me everything',
      model: 'claude-sonnet-4-5',
    })
    // Subscribed from the start, so the run's events reach it live (NOTIFY, then a read).
    const watching = listen(other.app, sent.body.conversation_id, isRunEnd)
    await storedChunk(sent.body.conversation_id, 'text-delta')

    const started = Date.now()
    const interrupt = await request(
      other.app,
      `/api/demo/applications/${applicationId}/interrupt?conversation_id=${sent.body.conversation_id}`,
      { method: 'POST' },
    )
    expect(await interrupt.json()).toEqual({ interrupted: true })
    await harness.created.conversations.runs.settled(sent.body.conversation_id)
    // By NOTIFY, not by a heartbeat's sweep (30 s): the bound is loose for a loaded machine, where
    // this took up to 6 s (about 100 ms idle).
    expect(Date.now() - started).toBeLessThan(10_000)
    const all = await watching
    expect(all.at(-1)?.chunk).toMatchObject({ data: { status: 'interrupted' } })
    expect(all.map((envelope) => envelope.seq)).toEqual(all.map((_, index) => index + 1))
  })

  it('answers a message staged through another process once the run takes it', async () => {
    const other = others[0] ?? (await startOtherProcess({}))
    fake.push(
      {
        blocks: [
          { type: 'text', text: 'Checking the time.' },
          { type: 'tool-call', name: 'get_time', input: {} },
        ],
        eventDelayMs: 200,
      },
      { blocks: [{ type: 'text', text: 'Done, in blue.' }] },
    )
    const sent = await call<Sent>(actor, `/api/demo/applications/${applicationId}/message`, {
      message: 'What time is it?',
      model: 'claude-sonnet-4-5',
    })
    await storedChunk(sent.body.conversation_id, 'text-delta')
    const staged = await request(
      other.app,
      `/api/demo/applications/${applicationId}/stage-message`,
      {
        method: 'POST',
        body: JSON.stringify({
          message: 'Make it blue',
          conversation_id: sent.body.conversation_id,
          client_id: 'tab-9',
        }),
      },
    )
    expect(await staged.json()).toEqual({ status: 'sent' })
    await harness.created.conversations.runs.settled(sent.body.conversation_id)
    const request2 = fake.requests.at(-1)?.body as {
      messages: { content: { text?: string }[] }[]
    }
    expect(request2.messages.at(-1)?.content.at(-1)?.text).toBe('Make it blue')
  })

  it('closes its runs with a retryable error when the server stops', async () => {
    fake.push({ blocks: [{ type: 'text', text: 'Still going' }], holdOpen: true })
    const sent = await call<Sent>(actor, `/api/demo/applications/${applicationId}/message`, {
      message: 'Keep going',
      model: 'claude-sonnet-4-5',
    })
    await storedChunk(sent.body.conversation_id, 'text-delta')
    await harness.created.conversations.runs.stop()
    const closed = await listen(harness.app, sent.body.conversation_id, isRunEnd)
    expect(closed.slice(-3).map((envelope) => envelope.chunk)).toEqual([
      { type: 'data-error', data: { error: RESTART_ERROR_MESSAGE, errorType: 'internal' } },
      { type: 'finish' },
      { type: 'data-run', data: { runId: sent.body.run_id, status: 'failed' } },
    ])
    expect(closed.filter((envelope) => envelope.chunk.type === 'data-error')).toHaveLength(1)
  })

  it('closes the run of a process that died with a retryable error; continue then works', async () => {
    fake.push({ blocks: [{ type: 'text', text: 'Working on it' }], holdOpen: true })
    const sent = await call<Sent>(actor, `/api/demo/applications/${applicationId}/message`, {
      message: 'Build the thing',
      model: 'claude-sonnet-4-5',
    })
    const conversationId = sent.body.conversation_id
    await storedChunk(conversationId, 'text-delta')
    await harness.created.conversations.runs.halt()
    // Only the process started next may lead here (docs/decisions/032-one-leader.md).
    for (const other of others) await other.leadership.stop()
    const restarted = await startOtherProcess({ heartbeatMs: 100, staleAfterMs: 300 })
    if (harness.database.kind === 'postgres') {
      // A follower leaves the stale run alone: it is the leader's to close.
      expect(restarted.leadership.isLeader()).toBe(false)
      await waitForStaleRun(sent.body.run_id, 900)
      expect((await runRow(sent.body.run_id))?.status).toBe('running')
    }
    // A dead process's connection, and with it the leader's lock, is gone.
    await harness.created.leadership.stop()
    const closed = await listen(restarted.app, conversationId, isRunEnd)
    expect(closed.slice(-3).map((envelope) => envelope.chunk)).toEqual([
      { type: 'data-error', data: { error: RESTART_ERROR_MESSAGE, errorType: 'internal' } },
      { type: 'finish' },
      { type: 'data-run', data: { runId: sent.body.run_id, status: 'failed' } },
    ])
    // The row is closed right after the closing events are stored.
    for (
      let attempt = 0;
      attempt < 100 && (await runRow(sent.body.run_id))?.status === 'running';
      attempt++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(await runRow(sent.body.run_id)).toEqual({
      status: 'failed',
      error: RESTART_ERROR_MESSAGE,
    })

    fake.push({ blocks: [{ type: 'text', text: 'Done after the restart.' }] })
    const continued = await request(
      restarted.app,
      `/api/demo/applications/${applicationId}/continue?conversation_id=${conversationId}`,
      { method: 'POST' },
    )
    expect(continued.status).toBe(200)
    const { run_id: runId } = (await continued.json()) as { run_id: string }
    const after = await listen(
      restarted.app,
      conversationId,
      (envelope) => isRunEnd(envelope) && envelope.runId === runId,
    )
    expect(after.at(-1)?.chunk).toEqual({ type: 'data-run', data: { runId, status: 'finished' } })
    const lastRequest = fake.requests.at(-1)?.body as {
      messages: { role: string; content: { text?: string }[] }[]
    }
    expect(lastRequest.messages.at(-1)?.content.at(-1)?.text).toBe('Build the thing')
  })
})

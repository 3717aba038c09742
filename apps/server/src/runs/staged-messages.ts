import { randomUUID } from 'node:crypto'
import type { Database } from '@sprout/db/database.ts'
import { runs } from '@sprout/db/schema/runs.ts'
import { stagedMessages } from '@sprout/db/schema/staged-messages.ts'
import type { StreamChunk } from '@sprout/protocol/stream/stream-chunk.ts'
import { and, eq } from 'drizzle-orm'
import type { EventHub } from '../stream/event-hub.ts'
import type { EventStore } from '../stream/event-store.ts'

type StagedContext = { db: Database; store: EventStore }
type StagedRow = { id: string; text: string; clientId: string | null }

/** data-staged carries the web's id for the message (client_id) when it sent one. */
const answerId = (row: StagedRow) => row.clientId ?? row.id

const stagedChunk = (row: StagedRow, status: 'sent' | 'unsent'): StreamChunk => ({
  type: 'data-staged',
  data: { id: answerId(row), status, text: row.text },
})

/** Sets every pending message of the conversation to `change`; returns them in arrival order. */
async function settlePending(
  db: Database,
  conversationId: string,
  change: { status: 'sent'; runId: string } | { status: 'unsent' },
): Promise<StagedRow[]> {
  const rows = await db
    .update(stagedMessages)
    .set(change)
    .where(
      and(eq(stagedMessages.conversationId, conversationId), eq(stagedMessages.status, 'pending')),
    )
    .returning({
      id: stagedMessages.id,
      text: stagedMessages.text,
      clientId: stagedMessages.clientId,
      sequence: stagedMessages.sequence,
    })
  return rows.sort((first, second) => first.sequence - second.sequence)
}

/**
 * Called by the run at a step boundary: takes every pending message of the conversation, in the
 * order they arrived, exactly once (the update only matches rows still pending).
 */
export async function takeStagedMessages(
  { db, store }: StagedContext,
  conversationId: string,
  runId: string,
): Promise<string[]> {
  const taken = await settlePending(db, conversationId, { status: 'sent', runId })
  for (const row of taken) {
    store.append(conversationId, runId, stagedChunk(row, 'sent'))
    store.append(conversationId, runId, {
      type: 'data-user-message',
      data: { id: row.id, text: row.text, ...(row.clientId ? { clientId: row.clientId } : {}) },
    })
  }
  return taken.map((row) => row.text)
}

/** At the end of a run: every message still pending goes back to its sender ('unsent'). */
export async function handBackStagedMessages(
  { db, store }: StagedContext,
  conversationId: string,
): Promise<void> {
  const returned = await settlePending(db, conversationId, { status: 'unsent' })
  for (const row of returned) store.append(conversationId, null, stagedChunk(row, 'unsent'))
  await store.flush(conversationId)
}

/** Marks one message unsent unless the run took it first; true when this call did. */
async function handBackOne({ db, store }: StagedContext, row: StagedRow, conversationId: string) {
  const updated = await db
    .update(stagedMessages)
    .set({ status: 'unsent' })
    .where(and(eq(stagedMessages.id, row.id), eq(stagedMessages.status, 'pending')))
    .returning({ id: stagedMessages.id })
  if (updated.length === 0) return false
  await store.appendAndWait(conversationId, null, stagedChunk(row, 'unsent'))
  return true
}

const decoder = new TextDecoder()

/**
 * POST …/stage-message: waits until the active run takes the message ('sent'), or it ends or the
 * wait times out ('unsent'; at once without a run). The run may live in another process: its
 * data-staged and data-run events wake the wait through the hub.
 */
export async function stageMessage(
  context: StagedContext & { hub: EventHub; timeoutMs: number },
  conversationId: string,
  input: { text: string; clientId: string | undefined },
): Promise<'sent' | 'unsent'> {
  const { db, hub } = context
  const row: StagedRow = { id: randomUUID(), text: input.text, clientId: input.clientId ?? null }
  const activeRunId = async () => {
    const rows = await db
      .select({ id: runs.id })
      .from(runs)
      .where(and(eq(runs.conversationId, conversationId), eq(runs.status, 'running')))
      .limit(1)
    return rows[0]?.id
  }
  const runId = await activeRunId()
  if (!runId) return 'unsent'
  // If the run ends right now without seeing the message, the loop below hands it back.
  await db.insert(stagedMessages).values({
    id: row.id,
    conversationId,
    runId,
    text: row.text,
    clientId: row.clientId,
    status: 'pending',
  })

  let wake: (() => void) | undefined
  const subscription = await hub.subscribe(conversationId, {
    deliver: (envelope) => {
      const text = decoder.decode(envelope.bytes)
      if (text.includes('"data-staged"') || text.includes('"data-run"')) wake?.()
    },
    heartbeat: () => {},
    close: () => wake?.(),
  })
  const deadline = Date.now() + context.timeoutMs
  try {
    for (;;) {
      const [current] = await db
        .select({ status: stagedMessages.status })
        .from(stagedMessages)
        .where(eq(stagedMessages.id, row.id))
      if (current?.status === 'sent' || current?.status === 'unsent') return current.status
      // The run ended without taking it (it may have closed just before the message arrived).
      if ((await activeRunId()) === undefined || Date.now() >= deadline) {
        if (await handBackOne(context, row, conversationId)) return 'unsent'
        continue
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()))
        wake = () => {
          clearTimeout(timer)
          resolve()
        }
      })
      wake = undefined
    }
  } finally {
    subscription.unsubscribe()
  }
}

/**
 * Takes a queued message back (Escape): 'unsent' when it was still pending, 'sent' when the run
 * took it first, undefined when no such message exists.
 */
export async function cancelStagedMessage(
  context: StagedContext,
  conversationId: string,
  clientId: string,
): Promise<'sent' | 'unsent' | undefined> {
  const rows = await context.db
    .select({
      id: stagedMessages.id,
      text: stagedMessages.text,
      clientId: stagedMessages.clientId,
      status: stagedMessages.status,
    })
    .from(stagedMessages)
    .where(
      and(eq(stagedMessages.conversationId, conversationId), eq(stagedMessages.clientId, clientId)),
    )
  const row = rows.find((candidate) => candidate.status === 'pending') ?? rows[0]
  if (!row) return undefined
  if (row.status === 'pending' && (await handBackOne(context, row, conversationId))) return 'unsent'
  const [current] = await context.db
    .select({ status: stagedMessages.status })
    .from(stagedMessages)
    .where(eq(stagedMessages.id, row.id))
  return current?.status === 'sent' ? 'sent' : 'unsent'
}

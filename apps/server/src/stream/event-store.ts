import type { DatabaseHandle } from '@sprout/db/database.ts'
import { isDeltaChunk, mergeDeltas } from '@sprout/protocol/stream/merge-deltas.ts'
import { isKnownStreamChunk, type StreamChunk } from '@sprout/protocol/stream/stream-chunk.ts'
import { storableJson } from '@sprout/protocol/text/well-formed.ts'
import { type EncodedEnvelope, encodeEnvelope } from './encoded-envelope.ts'

export const EVENTS_CHANNEL = 'conversation_events'

type Waiter = { resolve: () => void; reject: (error: unknown) => void }
type Item = { runId: string | null; chunk: StreamChunk; waiters: Waiter[] | undefined }
type Queue = {
  pending: Item[]
  writing: boolean
  /** Waiters of the batch being written (flush() while nothing is pending). */
  inflight: Waiter[]
  failure: unknown
  /** When the last batch was written, and whether it held only deltas (a stream is under way). */
  lastWriteAt: number
  lastBatchWasDeltas: boolean
  /** Ends the wait of a batch of quiet chunks (something the chat shows has arrived). */
  wake: (() => void) | undefined
}

export type StoredEvent = { seq: number; runId: string | null; chunkText: string }

function addWaiter(item: Item, waiter: Waiter) {
  if (item.waiters) item.waiters.push(waiter)
  else item.waiters = [waiter]
}

const maxBatchItems = 500
const maxBatchCharacters = 2_000_000
/** Past this many unwritten chunks a producer waits for the batch being written. */
const backpressureItems = 2_000
/**
 * While text streams, deltas are written at most this often (merged in between), which keeps
 * a fast stream from costing one insert per token. The first delta after anything else goes at
 * once, so the first token is never held back.
 */
export const DELTA_BATCH_INTERVAL_MS = 15
const idleQueueMs = 5_000

/**
 * Chunks that show nothing by themselves (a step or a part begins; chunk types the chat
 * ignores). They wait up to DELTA_BATCH_INTERVAL_MS for what follows, so that a step's opening
 * chunks and its first token go in one insert instead of the token queueing behind them.
 */
const quietChunkTypes: ReadonlySet<string> = new Set([
  'start',
  'start-step',
  'text-start',
  'reasoning-start',
])
const isQuietChunk = (chunk: StreamChunk) =>
  quietChunkTypes.has(chunk.type) || !isKnownStreamChunk(chunk)

/**
 * One statement assigns the next seqs, inserts the batch and NOTIFYs (delivered at commit).
 * Two writers racing for a seq make one fail on the primary key; it retries with the new max,
 * so seqs never repeat and never leave a gap.
 */
const insertBatchSql = `
with base as (
  select coalesce(max(seq), 0) as seq from conversation_events where conversation_id = $1
), inserted as (
  insert into conversation_events (conversation_id, seq, run_id, chunk)
  select $1, base.seq + item.ordinality, item.value->>'r', item.value->'c'
  from base, jsonb_array_elements($2::jsonb) with ordinality as item(value, ordinality)
  returning seq
)
select max(seq)::text as last, pg_notify('${EVENTS_CHANNEL}', $1 || ':' || max(seq)) from inserted`

export type EventStore = ReturnType<typeof createEventStore>

/**
 * Appends chunks to conversation_events. Per conversation, chunks queue up while a batch is being
 * written and go in the next one (group commit), consecutive deltas of one part merged; `onStored`
 * receives each committed batch (the in-process fast path to listeners).
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: one closure holds the write queues and seq bookkeeping its methods share
export function createEventStore(options: {
  database: DatabaseHandle
  onStored: (conversationId: string, envelopes: EncodedEnvelope[]) => void
}) {
  const { database, onStored } = options
  const queues = new Map<string, Queue>()

  const queueOf = (conversationId: string): Queue => {
    let queue = queues.get(conversationId)
    if (!queue) {
      queue = {
        pending: [],
        writing: false,
        inflight: [],
        failure: undefined,
        lastWriteAt: 0,
        lastBatchWasDeltas: false,
        wake: undefined,
      }
      queues.set(conversationId, queue)
    }
    return queue
  }

  const insertBatch = async (
    conversationId: string,
    texts: string[],
    runIds: (string | null)[],
  ) => {
    const items = `[${texts.map((text, index) => `{"r":${JSON.stringify(runIds[index])},"c":${text}}`).join(',')}]`
    for (let attempt = 0; ; attempt++) {
      try {
        const { rows } = await database.execute(insertBatchSql, [conversationId, items])
        return Number(rows[0]?.last)
      } catch (error) {
        const conflict = (error as { code?: unknown }).code === '23505'
        if (attempt >= (conflict ? 50 : 3)) throw error
        await new Promise((resolve) => setTimeout(resolve, conflict ? attempt : 200 * 4 ** attempt))
      }
    }
  }

  const waitForMoreThanQuiet = (queue: Queue) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => queue.wake?.(), DELTA_BATCH_INTERVAL_MS)
      queue.wake = () => {
        clearTimeout(timer)
        queue.wake = undefined
        resolve()
      }
    })

  const drain = async (conversationId: string, queue: Queue) => {
    while (queue.pending.length > 0) {
      if (queue.pending.every((item) => isQuietChunk(item.chunk))) {
        await waitForMoreThanQuiet(queue)
      }
      const onlyDeltas = queue.pending.every((item) => isDeltaChunk(item.chunk))
      const wait = queue.lastWriteAt + DELTA_BATCH_INTERVAL_MS - performance.now()
      if (onlyDeltas && queue.lastBatchWasDeltas && wait > 0) {
        await new Promise((resolve) => setTimeout(resolve, wait))
      }
      queue.lastBatchWasDeltas = queue.pending.every((item) => isDeltaChunk(item.chunk))
      queue.lastWriteAt = performance.now()
      let characters = 0
      let count = 0
      const texts: string[] = []
      for (const item of queue.pending) {
        if (count >= maxBatchItems || characters >= maxBatchCharacters) break
        const text = storableJson(item.chunk)
        texts.push(text)
        characters += text.length
        count++
      }
      const batch = queue.pending.splice(0, count)
      const waiters = [...batch.flatMap((item) => item.waiters ?? [])]
      queue.inflight = waiters
      const runIds = batch.map((item) => item.runId)
      try {
        const last = await insertBatch(conversationId, texts, runIds)
        const first = last - batch.length + 1
        try {
          onStored(
            conversationId,
            texts.map((text, index) => encodeEnvelope(first + index, runIds[index] ?? null, text)),
          )
        } catch (error) {
          console.error('[events] delivering stored events failed:', error)
        }
        for (const waiter of queue.inflight) waiter.resolve()
      } catch (error) {
        console.error(`[events] storing events of ${conversationId} failed:`, error)
        queue.failure = error
        for (const waiter of queue.inflight) waiter.reject(error)
      }
      queue.inflight = []
    }
    queue.writing = false
  }

  // Queues outlive their last write briefly, so that a stream's pace is known between deltas.
  const sweeper = setInterval(() => {
    const idleSince = performance.now() - idleQueueMs
    for (const [conversationId, queue] of queues) {
      if (!queue.writing && queue.pending.length === 0 && queue.lastWriteAt < idleSince) {
        queues.delete(conversationId)
      }
    }
  }, idleQueueMs)
  sweeper.unref()

  const enqueue = (
    conversationId: string,
    runId: string | null,
    chunk: StreamChunk,
    waiter?: Waiter,
  ): Queue => {
    const queue = queueOf(conversationId)
    if (queue.failure !== undefined) {
      // Reported once: the producer (a run) fails, and its closing events are tried afresh.
      const failure = queue.failure
      queue.failure = undefined
      throw failure
    }
    const last = queue.pending.at(-1)
    const merged = last && last.runId === runId ? mergeDeltas(last.chunk, chunk) : undefined
    if (last && merged) {
      last.chunk = merged
      if (waiter) addWaiter(last, waiter)
    } else {
      queue.pending.push({ runId, chunk, waiters: waiter ? [waiter] : undefined })
    }
    if (waiter || !isQuietChunk(chunk)) queue.wake?.()
    if (!queue.writing) {
      queue.writing = true
      // In a microtask: chunks appended in the same tick go in one batch.
      queueMicrotask(() => void drain(conversationId, queue))
    }
    return queue
  }

  const flush = (conversationId: string): Promise<void> => {
    const queue = queues.get(conversationId)
    if (!queue || (!queue.writing && queue.pending.length === 0)) return Promise.resolve()
    queue.wake?.()
    return new Promise((resolve, reject) => {
      const last = queue.pending.at(-1)
      if (last) addWaiter(last, { resolve, reject })
      else queue.inflight.push({ resolve, reject })
    })
  }

  return {
    /**
     * Queues a chunk; it is stored with the next batch. Returns a promise only when the producer
     * should wait (the database is falling behind); throws once storing has failed.
     */
    append: (
      conversationId: string,
      runId: string | null,
      chunk: StreamChunk,
    ): Promise<void> | undefined => {
      const queue = enqueue(conversationId, runId, chunk)
      return queue.pending.length >= backpressureItems ? flush(conversationId) : undefined
    },

    /** Stores a chunk and resolves once it (and everything queued before it) is committed. */
    appendAndWait: (conversationId: string, runId: string | null, chunk: StreamChunk) =>
      new Promise<void>((resolve, reject) => {
        try {
          enqueue(conversationId, runId, chunk, { resolve, reject })
        } catch (error) {
          reject(error)
        }
      }),

    /** Resolves once every chunk queued so far for the conversation is committed. */
    flush,

    /** Stored events with `after` < seq ≤ `upTo`, in order, at most `limit`. */
    read: async (
      conversationId: string,
      after: number,
      upTo: number,
      limit: number,
    ): Promise<StoredEvent[]> => {
      const { rows } = await database.execute(
        `select seq::text as seq_text, run_id, chunk::text as chunk_text from conversation_events
         where conversation_id = $1 and seq > $2 and seq <= $3 order by seq limit $4`,
        [conversationId, after, upTo, limit],
      )
      return rows.map((row) => ({
        seq: Number(row.seq_text),
        runId: (row.run_id as string | null) ?? null,
        chunkText: row.chunk_text as string,
      }))
    },

    close: () => clearInterval(sweeper),

    lastSeq: async (conversationId: string): Promise<number> => {
      const { rows } = await database.execute(
        'select coalesce(max(seq), 0)::text as last from conversation_events where conversation_id = $1',
        [conversationId],
      )
      return Number(rows[0]?.last ?? 0)
    },
  }
}

import type { DatabaseHandle } from '@sprout/db/database.ts'

export type StoredEvent = { seq: number; runId: string | null; chunkText: string }

/** Stored events with `after` < seq ≤ `upTo`, in order, at most `limit`. */
export async function readEvents(
  database: DatabaseHandle,
  conversationId: string,
  after: number,
  upTo: number,
  limit: number,
): Promise<StoredEvent[]> {
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
}

/** The conversation's last stored seq; 0 before its first event. */
export async function readLastSeq(
  database: DatabaseHandle,
  conversationId: string,
): Promise<number> {
  const { rows } = await database.execute(
    'select coalesce(max(seq), 0)::text as last from conversation_events where conversation_id = $1',
    [conversationId],
  )
  return Number(rows[0]?.last ?? 0)
}

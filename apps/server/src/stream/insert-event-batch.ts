import type { DatabaseHandle } from '@sprout/db/database.ts'

export const EVENTS_CHANNEL = 'conversation_events'

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

/** Inserts the chunks (JSON texts) of a batch; resolves to the seq of the last one. */
export async function insertEventBatch(
  database: DatabaseHandle,
  conversationId: string,
  texts: string[],
  runIds: (string | null)[],
) {
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

/** Builder conversations with stored streams, for the evaluation tests and bench/evaluations.ts. */
import { randomUUID } from 'node:crypto'
import type { Database } from '@sprout/db/database.ts'
import { applications } from '@sprout/db/schema/applications.ts'
import { conversationEvents } from '@sprout/db/schema/conversation-events.ts'
import { conversations } from '@sprout/db/schema/conversations.ts'
import { messages } from '@sprout/db/schema/messages.ts'

export async function seedApplication(db: Database, organizationId: string, name = 'Recipe box') {
  const id = randomUUID()
  await db.insert(applications).values({
    id,
    organizationId,
    name,
    slug: `app-${id.slice(0, 8)}`,
    initialPrompt: 'A recipe tracker',
    model: 'demo',
  })
  return id
}

const usage = (inputTokens: number) => ({
  type: 'data-usage',
  data: { inputTokens, cacheReadTokens: 0, outputTokens: 50, used: 0, limit: 0, percentage: 0 },
})

/**
 * The chunks of a conversation with friction: a failing `npm test` (exit code 1), a correction,
 * an interrupt, a retry, a handed-back staged message and a compaction; then a finished run.
 */
export function frictionChunks(index: number): unknown[] {
  const text = (id: string, words: string) => [
    { type: 'text-start', id },
    { type: 'text-delta', id, delta: words },
    { type: 'text-end', id },
  ]
  const run = (status: string) => ({ type: 'data-run', data: { runId: `r${index}`, status } })
  return [
    { type: 'data-user-message', data: { id: 'u1', text: `Build recipe tracker number ${index}` } },
    run('running'),
    { type: 'start' },
    ...text('t1', 'I will add the recipe list and run the tests.'),
    {
      type: 'tool-input-available',
      toolCallId: 'c1',
      toolName: 'shell_exec',
      input: { command: 'npm test' },
    },
    {
      type: 'tool-output-available',
      toolCallId: 'c1',
      output: 'FAIL src/App.test.tsx\n[exit code 1]',
    },
    usage(1_200),
    { type: 'data-error', data: { error: 'User interrupted', errorType: 'interrupt' } },
    run('interrupted'),
    run('running'),
    { type: 'data-staged', data: { id: 's1', status: 'unsent', text: 'also add tags' } },
    { type: 'data-compaction', data: { status: 'started' } },
    { type: 'data-compaction', data: { status: 'done' } },
    ...text('t2', 'The list is done.'),
    usage(2_400),
    run('finished'),
    {
      type: 'data-user-message',
      data: { id: 'u2', text: "It still doesn't work, the list is empty" },
    },
    run('running'),
    {
      type: 'tool-input-available',
      toolCallId: 'c2',
      toolName: 'write_file',
      input: { path: 'src/App.tsx' },
    },
    { type: 'tool-output-available', toolCallId: 'c2', output: 'Wrote src/App.tsx' },
    ...text('t3', 'Fixed: the list now loads from the API.'),
    usage(3_000),
    run('finished'),
  ]
}

/** `count` builder conversations of the application, one created_at apart, oldest first. */
export async function seedConversations(
  db: Database,
  input: { organizationId: string; applicationId: string; count: number; withEvents?: boolean },
): Promise<string[]> {
  const ids: string[] = []
  const base = Date.now() - input.count * 1000
  for (let start = 0; start < input.count; start += 500) {
    const batch = Array.from({ length: Math.min(500, input.count - start) }, (_, offset) => {
      const index = start + offset
      return {
        id: randomUUID(),
        organizationId: input.organizationId,
        applicationId: input.applicationId,
        kind: 'builder',
        title: `Conversation ${index}`,
        activeModel: 'demo',
        createdAt: new Date(base + index * 1000),
      }
    })
    await db.insert(conversations).values(batch)
    ids.push(...batch.map((row) => row.id))
    await db.insert(messages).values(
      batch.flatMap((row) =>
        [0, 1].map((position) => ({
          conversationId: row.id,
          position,
          message: { role: position === 0 ? 'user' : 'assistant', content: 'hello' },
        })),
      ),
    )
    if (input.withEvents === false) continue
    await db.insert(conversationEvents).values(
      batch.flatMap((row, offset) =>
        frictionChunks(start + offset).map((chunk, seq) => ({
          conversationId: row.id,
          seq: seq + 1,
          chunk,
          createdAt: new Date(row.createdAt.getTime() + seq * 2_000),
        })),
      ),
    )
  }
  return ids
}

import { randomUUID } from 'node:crypto'
import type { Database } from '@sprout/db/database.ts'
import { applications } from '@sprout/db/schema/applications.ts'
import { conversations } from '@sprout/db/schema/conversations.ts'
import { messages } from '@sprout/db/schema/messages.ts'
import type { Conversation } from '@sprout/protocol/api/conversations.ts'
import { CONVERSATIONS_PAGE_SIZE } from '@sprout/protocol/constants.ts'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import { toStorableJson, toStorableText } from '@sprout/protocol/text/well-formed.ts'
import type { ModelMessage } from 'ai'
import { and, asc, desc, eq, sql } from 'drizzle-orm'
import { notFound } from '../http/app-error.ts'

export type ConversationRecord = typeof conversations.$inferSelect
export type ConversationKind = 'builder' | 'exploration'

/** Where a conversation must belong: the caller's organization and, for builders, the app. */
export type ConversationScope = {
  organizationId: string
  kind: ConversationKind
  applicationId: string | null
}

const TITLE_WORDS = 6
const TITLE_MAX = 60

/** The first words of the message: 'Build a recipe tracker with ingredients and…' → 6 words. */
export function titleFromMessage(message: string): string {
  const words = message.replace(/\s+/g, ' ').trim().split(' ')
  let title = words.slice(0, TITLE_WORDS).join(' ')
  if (title.length > TITLE_MAX) title = `${cutText(title, TITLE_MAX - 1).trimEnd()}…`
  title = title.replace(/[\s.,;:!?-]+$/, '')
  return title ? toStorableText(title.charAt(0).toUpperCase() + title.slice(1)) : 'New conversation'
}

export function presentConversation(record: ConversationRecord): Conversation {
  return {
    id: record.id,
    title: record.title,
    created: record.createdAt.toISOString(),
    updated: record.updatedAt.toISOString(),
    last_message_at: record.lastMessageAt?.toISOString() ?? null,
    active_model: record.activeModel,
  }
}

export async function createConversationRecord(
  db: Database,
  scope: ConversationScope,
  input: { title: string; model: string; createdBy: string },
): Promise<ConversationRecord> {
  const [record] = await db
    .insert(conversations)
    .values({
      id: randomUUID(),
      organizationId: scope.organizationId,
      applicationId: scope.applicationId,
      kind: scope.kind,
      title: input.title,
      activeModel: input.model,
      createdBy: input.createdBy,
    })
    .returning()
  if (!record) throw new Error('insert returned no conversation')
  return record
}

/** The conversation when it lies in the scope, else a 404 (never another tenant's). */
export async function findConversationRecord(
  db: Database,
  scope: ConversationScope,
  conversationId: string,
): Promise<ConversationRecord> {
  const rows = await db
    .select()
    .from(conversations)
    .where(
      and(
        eq(conversations.id, conversationId),
        eq(conversations.organizationId, scope.organizationId),
        eq(conversations.kind, scope.kind),
        scope.applicationId === null
          ? sql`${conversations.applicationId} is null`
          : eq(conversations.applicationId, scope.applicationId),
      ),
    )
    .limit(1)
  const record = rows[0]
  if (!record) throw notFound('Conversation not found')
  return record
}

/**
 * A builder conversation with its application's organization, looked up without a caller (the
 * listen route checks the membership itself); undefined unless it belongs to that application.
 */
export async function findConversationOfApplication(
  db: Database,
  applicationId: string,
  conversationId: string,
): Promise<{ id: string; organizationId: string } | undefined> {
  const rows = await db
    .select({ id: conversations.id, organizationId: applications.organizationId })
    .from(conversations)
    .innerJoin(applications, eq(applications.id, conversations.applicationId))
    .where(
      and(
        eq(conversations.id, conversationId),
        eq(conversations.applicationId, applicationId),
        eq(conversations.organizationId, applications.organizationId),
        eq(conversations.kind, 'builder'),
      ),
    )
    .limit(1)
  return rows[0]
}

export async function listConversationRecords(db: Database, applicationId: string) {
  return db
    .select()
    .from(conversations)
    .where(eq(conversations.applicationId, applicationId))
    .orderBy(desc(conversations.updatedAt), desc(conversations.createdAt))
    .limit(CONVERSATIONS_PAGE_SIZE)
}

export async function renameConversation(db: Database, conversationId: string, title: string) {
  await db.update(conversations).set({ title }).where(eq(conversations.id, conversationId))
}

export async function loadHistory(db: Database, conversationId: string): Promise<ModelMessage[]> {
  const rows = await db
    .select({ message: messages.message })
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(asc(messages.position))
  return rows.map((row) => row.message as ModelMessage)
}

/**
 * Reads the history a new message continues and appends `added` after it, in one statement (it
 * sits on the way to the first token): the read sees the rows as they were before the append.
 * Run after the claim, like a read alone (docs/architecture/agent-loop.md "Runs on the server").
 */
export async function loadAndAppendHistory(
  db: Database,
  conversationId: string,
  added: ModelMessage[],
): Promise<ModelMessage[]> {
  const result = await db.execute(sql`
    with previous as (
      select position, message from messages where conversation_id = ${conversationId}
    ), appended as (
      insert into messages (conversation_id, position, message)
      select ${conversationId}, coalesce((select max(position) from previous), -1) + item.ordinality,
        item.value
      from jsonb_array_elements(${JSON.stringify(added.map(jsonSafe))}::jsonb)
        with ordinality as item(value, ordinality)
    )
    select message from previous order by position`)
  // Both drivers answer `{ rows }` with jsonb parsed (drizzle types the result per driver).
  const { rows } = result as unknown as { rows: { message: ModelMessage }[] }
  return rows.map((row) => row.message)
}

export async function appendHistory(
  db: Database,
  conversationId: string,
  added: ModelMessage[],
): Promise<void> {
  if (added.length === 0) return
  // One statement (no transaction round trips): it sits on the way to the first token.
  await db.execute(sql`
    insert into messages (conversation_id, position, message)
    select ${conversationId},
      coalesce((select max(position) from messages where conversation_id = ${conversationId}), -1)
        + item.ordinality,
      item.value
    from jsonb_array_elements(${JSON.stringify(added.map(jsonSafe))}::jsonb)
      with ordinality as item(value, ordinality)`)
}

/** Stores the history a run ended with (compacted or not) in place of the old one. */
export async function replaceHistory(
  db: Database,
  conversationId: string,
  history: ModelMessage[],
): Promise<void> {
  await db.transaction(async (transaction) => {
    await transaction.delete(messages).where(eq(messages.conversationId, conversationId))
    for (let start = 0; start < history.length; start += 500) {
      await transaction.insert(messages).values(
        history.slice(start, start + 500).map((message, index) => ({
          conversationId,
          position: start + index,
          message: jsonSafe(message),
        })),
      )
    }
  })
}

const binaryAsBase64 = (_key: string, value: unknown) =>
  value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value

/**
 * Binary parts become base64, and every string is made storable: jsonb refuses NUL and lone
 * surrogates, which a model's text or a tool's output may hold.
 */
function jsonSafe(message: ModelMessage): unknown {
  return toStorableJson(JSON.parse(JSON.stringify(message, binaryAsBase64)))
}

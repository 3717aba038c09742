import { randomUUID } from 'node:crypto'
import type { Database } from '@sprout/db/database.ts'
import { applications } from '@sprout/db/schema/applications.ts'
import { organization } from '@sprout/db/schema/auth.ts'
import { conversations } from '@sprout/db/schema/conversations.ts'
import { evaluationItems, evaluations } from '@sprout/db/schema/evaluations.ts'
import type {
  AdminConversationList,
  AdminConversationsQuery,
  CreateEvaluation,
  Evaluation,
  EvaluationItem,
  EvaluationItemStatus,
  EvaluationStatus,
  EvaluationStatusResponse,
} from '@sprout/protocol/api/evaluations.ts'
import { evaluationMessages } from '@sprout/protocol/api/evaluations.ts'
import { DEFAULT_MODEL_ID, DEMO_MODEL_ID } from '@sprout/protocol/models.ts'
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm'
import type { Config } from '../config/config.ts'
import { badRequest, notFound } from '../http/app-error.ts'
import { listModels, requireRunnableModel } from '../models/service.ts'
import { organizationDisplayName, organizationOwnerName } from '../organizations/service.ts'

// docs/product/admin.md "Conversation Evaluations tab": platform admins only (the routes check).

function decodeCursor(cursor: string): { at: string; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[]
    if (typeof at === 'string' && typeof id === 'string' && !Number.isNaN(Date.parse(at))) {
      return { at, id }
    }
  } catch {}
  throw badRequest('Invalid query parameter "cursor": pass the next_cursor of a previous page')
}

/**
 * Every organization's builder conversations, newest first. The cursor is the last row's exact
 * (created_at, id) — microseconds kept, as PostgreSQL prints them — so rows added meanwhile
 * (newer) never shift a later page: nothing is skipped or repeated.
 */
export async function listAdminConversations(
  db: Database,
  query: AdminConversationsQuery,
): Promise<AdminConversationList> {
  const after = query.cursor ? decodeCursor(query.cursor) : undefined
  const rows = await db
    .select({
      id: conversations.id,
      title: conversations.title,
      createdAt: conversations.createdAt,
      exactCreatedAt: sql<string>`${conversations.createdAt}::text`,
      orgSlug: organization.slug,
      orgName: organization.name,
      orgIsPersonal: organization.isPersonal,
      orgOwnerName: organizationOwnerName,
      appName: applications.name,
      messageCount: sql<number>`(select count(*)::int from messages where messages.conversation_id = ${conversations.id})`,
    })
    .from(conversations)
    .innerJoin(organization, eq(organization.id, conversations.organizationId))
    .leftJoin(applications, eq(applications.id, conversations.applicationId))
    .where(
      and(
        eq(conversations.kind, 'builder'),
        after
          ? sql`(${conversations.createdAt}, ${conversations.id}) < (${after.at}::timestamptz, ${after.id})`
          : undefined,
      ),
    )
    .orderBy(desc(conversations.createdAt), desc(conversations.id))
    .limit(query.limit + 1)
  const page = rows.slice(0, query.limit)
  const last = page.at(-1)
  return {
    conversations: page.map((row) => ({
      id: row.id,
      title: row.title,
      org: {
        slug: row.orgSlug,
        name:
          organizationDisplayName({
            name: row.orgName,
            isPersonal: row.orgIsPersonal,
            ownerName: row.orgOwnerName,
          }) ?? row.orgSlug,
      },
      app: row.appName === null ? null : { name: row.appName },
      message_count: Number(row.messageCount),
      created_at: row.createdAt.toISOString(),
    })),
    next_cursor:
      rows.length > query.limit && last
        ? Buffer.from(JSON.stringify([last.exactCreatedAt, last.id])).toString('base64url')
        : null,
  }
}

/** The judge when the admin names none: the default model if configured, else the offline one. */
export function defaultJudgeModel(config: Config): string {
  const available = listModels(config).filter(
    (model) =>
      model.available && model.provider !== 'demo' && model.provider !== 'openai-compatible',
  )
  if (available.length === 0) return DEMO_MODEL_ID
  return (
    (available.find((model) => model.model === DEFAULT_MODEL_ID) ?? available[0])?.model ??
    DEMO_MODEL_ID
  )
}

export async function createEvaluation(
  input: { db: Database; config: Config; userId: string },
  request: CreateEvaluation,
): Promise<{ eval_id: string }> {
  const { db } = input
  const model = request.model ?? defaultJudgeModel(input.config)
  if (model !== DEMO_MODEL_ID) requireRunnableModel(input.config, model)
  const found = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(
      and(inArray(conversations.id, request.conversation_ids), eq(conversations.kind, 'builder')),
    )
  const known = new Set(found.map((row) => row.id))
  const unknown = request.conversation_ids.filter((id) => !known.has(id))
  if (unknown.length > 0) {
    throw badRequest(
      `${evaluationMessages.unknownConversations}: ${unknown.slice(0, 10).join(', ')}`,
    )
  }
  const id = randomUUID()
  await db.transaction(async (transaction) => {
    await transaction.insert(evaluations).values({
      id,
      status: 'pending',
      promptTemplate: request.prompt_template,
      customPrompt: request.custom_prompt,
      concurrentLimit: request.concurrent_limit,
      model,
      createdBy: input.userId,
    })
    await transaction.insert(evaluationItems).values(
      request.conversation_ids.map((conversationId, position) => ({
        id: randomUUID(),
        evaluationId: id,
        position,
        conversationId,
        status: 'pending',
      })),
    )
  })
  return { eval_id: id }
}

type EvaluationRow = typeof evaluations.$inferSelect

async function findEvaluationRow(db: Database, id: string): Promise<EvaluationRow> {
  const [row] = await db.select().from(evaluations).where(eq(evaluations.id, id)).limit(1)
  if (!row) throw notFound('Evaluation not found')
  return row
}

async function itemCounts(db: Database, evaluationId: string) {
  const [counts] = await db
    .select({
      total: sql<number>`count(*)::int`,
      finished: sql<number>`(count(*) filter (where ${evaluationItems.status} in ('complete', 'failed')))::int`,
      failed: sql<number>`(count(*) filter (where ${evaluationItems.status} = 'failed'))::int`,
    })
    .from(evaluationItems)
    .where(eq(evaluationItems.evaluationId, evaluationId))
  return { total: counts?.total ?? 0, finished: counts?.finished ?? 0, failed: counts?.failed ?? 0 }
}

function presentEvaluation(
  row: EvaluationRow,
  counts: Awaited<ReturnType<typeof itemCounts>>,
): Evaluation {
  return {
    id: row.id,
    status: row.status as EvaluationStatus,
    created_at: row.createdAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
    prompt_template: row.promptTemplate,
    custom_prompt: row.customPrompt,
    concurrent_limit: row.concurrentLimit,
    model: row.model,
    conversation_count: counts.total,
    completed_count: counts.finished,
    failed_count: counts.failed,
  }
}

export async function getEvaluation(db: Database, id: string): Promise<Evaluation> {
  const row = await findEvaluationRow(db, id)
  return presentEvaluation(row, await itemCounts(db, id))
}

export async function listEvaluationItems(
  db: Database,
  evaluationId: string,
): Promise<EvaluationItem[]> {
  const rows = await db
    .select({
      id: evaluationItems.id,
      status: evaluationItems.status,
      conversationId: evaluationItems.conversationId,
      title: conversations.title,
      orgSlug: organization.slug,
      orgName: organization.name,
      orgIsPersonal: organization.isPersonal,
      orgOwnerName: organizationOwnerName,
      appSlug: applications.slug,
      appName: applications.name,
      startedAt: evaluationItems.startedAt,
      processingTimeMs: evaluationItems.processingTimeMs,
      summary: evaluationItems.summary,
      error: evaluationItems.error,
    })
    .from(evaluationItems)
    .leftJoin(conversations, eq(conversations.id, evaluationItems.conversationId))
    .leftJoin(organization, eq(organization.id, conversations.organizationId))
    .leftJoin(applications, eq(applications.id, conversations.applicationId))
    .where(eq(evaluationItems.evaluationId, evaluationId))
    .orderBy(asc(evaluationItems.position))
  return rows.map((row) => ({
    id: row.id,
    status: row.status as EvaluationItemStatus,
    conversation_id: row.conversationId ?? '',
    conversation_title: row.title,
    org_slug: row.orgSlug,
    org_name: organizationDisplayName({
      name: row.orgName,
      isPersonal: row.orgIsPersonal,
      ownerName: row.orgOwnerName,
    }),
    app_slug: row.appSlug,
    app_name: row.appName,
    started_at: row.startedAt?.toISOString() ?? null,
    processing_time_ms: row.processingTimeMs,
    summary: row.summary,
    error: row.error,
  }))
}

export async function evaluationStatus(
  db: Database,
  id: string,
): Promise<EvaluationStatusResponse> {
  const evaluation = await getEvaluation(db, id)
  return { ...evaluation, items: await listEvaluationItems(db, id) }
}

/** `results/raw`: the evaluation as plain text, one section per conversation. */
export async function rawResults(db: Database, id: string): Promise<string> {
  const status = await evaluationStatus(db, id)
  const header = [
    `Evaluation ${status.id}`,
    `Status: ${status.status}`,
    `Template: ${status.prompt_template ?? 'Custom'}`,
    `Model: ${status.model}`,
    `Concurrency: ${status.concurrent_limit}`,
    `Created: ${status.created_at}`,
    `Completed: ${status.completed_count} / ${status.conversation_count} (${status.failed_count} failed)`,
  ]
  if (status.custom_prompt) header.push('', 'Custom prompt:', status.custom_prompt)
  const sections = status.items.map((item, index) =>
    [
      `${'='.repeat(72)}`,
      `${index + 1}. ${item.conversation_title ?? 'Untitled Conversation'}`,
      `Conversation: ${item.conversation_id || '(deleted)'}`,
      `Organization: ${item.org_name ?? '-'}  App: ${item.app_slug ?? '-'}`,
      `Status: ${item.status}${item.processing_time_ms === null ? '' : `  Processing time: ${item.processing_time_ms} ms`}`,
      '',
      item.summary ?? (item.error ? `Failed: ${item.error}` : '(no result yet)'),
    ].join('\n'),
  )
  return `${[header.join('\n'), ...sections].join('\n\n')}\n`
}

export async function findEvaluationForStart(db: Database, id: string): Promise<EvaluationRow> {
  return findEvaluationRow(db, id)
}

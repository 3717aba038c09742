import { randomBytes, randomUUID } from 'node:crypto'
import type { Database } from '@sprout/db/database.ts'
import { applications } from '@sprout/db/schema/applications.ts'
import { deploys } from '@sprout/db/schema/deploys.ts'
import type { Application } from '@sprout/protocol/api/applications.ts'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import { and, desc, eq, inArray } from 'drizzle-orm'
import { notFound } from '../http/app-error.ts'
import type { RequestContext } from '../http/request-context.ts'
import { defaultVisibility, visibilityChoices } from './visibility-choices.ts'

export { visibilityChoices } from './visibility-choices.ts'

export type ApplicationRecord = typeof applications.$inferSelect

/** `Todo list for Ana` → `todo-list-for-ana-3f9a1c`: a readable, unguessable host label. */
export function slugFor(name: string): string {
  const base = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{Mark}/gu, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '')
  return `${base || 'app'}-${randomBytes(3).toString('hex')}`
}

const danglingWords = new Set([
  'a',
  'an',
  'and',
  'or',
  'the',
  'with',
  'for',
  'of',
  'to',
  'in',
  'that',
  'on',
])

/** A name from the first words of the description when none is given, without a dangling 'and'. */
export function nameFromPrompt(prompt: string): string {
  const words = prompt.replace(/\s+/g, ' ').trim().split(' ').slice(0, 6)
  while (words.length > 1 && danglingWords.has((words.at(-1) ?? '').toLowerCase())) words.pop()
  const phrase = words.join(' ').replace(/[.,;:!?]+$/, '')
  const name = phrase.length > 48 ? `${cutText(phrase, 47)}…` : phrase
  return name.charAt(0).toUpperCase() + name.slice(1)
}

function present(context: RequestContext, record: ApplicationRecord, live: boolean): Application {
  return {
    id: record.id,
    name: record.name,
    preview_url: context.origins.preview(record.slug),
    ...(live ? { prod_url: context.origins.apps(record.slug) } : {}),
    model: record.model,
    created_at: record.createdAt.toISOString(),
    visibility: record.visibility,
    allowed_emails: record.allowedEmails,
    visibility_choices: visibilityChoices(context.organization),
  }
}

async function liveApplicationIds(db: Database, applicationIds: string[]): Promise<Set<string>> {
  if (applicationIds.length === 0) return new Set()
  const rows = await db
    .selectDistinct({ applicationId: deploys.applicationId })
    .from(deploys)
    .where(
      and(
        inArray(deploys.applicationId, applicationIds),
        inArray(deploys.status, ['live', 'superseded']),
      ),
    )
  return new Set(rows.map((row) => row.applicationId))
}

export async function createApplicationRecord(
  context: RequestContext,
  input: { name: string | undefined; initialPrompt: string; model: string },
): Promise<ApplicationRecord> {
  const name = input.name ?? nameFromPrompt(input.initialPrompt)
  const [record] = await context.db
    .insert(applications)
    .values({
      id: randomUUID(),
      organizationId: context.organization.id,
      name,
      slug: slugFor(name),
      initialPrompt: input.initialPrompt,
      model: input.model,
      visibility: defaultVisibility(context.organization),
      createdBy: context.userId,
    })
    .returning()
  if (!record) throw new Error('insert returned no application')
  return record
}

export async function listApplications(context: RequestContext): Promise<Application[]> {
  const records = await context.db
    .select()
    .from(applications)
    .where(eq(applications.organizationId, context.organization.id))
    .orderBy(desc(applications.createdAt))
  const live = await liveApplicationIds(
    context.db,
    records.map((record) => record.id),
  )
  return records.map((record) => present(context, record, live.has(record.id)))
}

/**
 * The application a preview or apps host names. Not scoped to a caller: the preview host and the
 * devbox hand-off check membership of `organizationId` themselves; deploys are public.
 */
export async function findApplicationBySlug(
  db: Database,
  slug: string,
): Promise<{ id: string; organizationId: string } | undefined> {
  const rows = await db
    .select({ id: applications.id, organizationId: applications.organizationId })
    .from(applications)
    .where(eq(applications.slug, slug))
    .limit(1)
  return rows[0]
}

/** The host label of an application's origins, whoever asks (the app's own processes). */
export async function findApplicationSlug(db: Database, applicationId: string) {
  const rows = await db
    .select({ slug: applications.slug })
    .from(applications)
    .where(eq(applications.id, applicationId))
    .limit(1)
  return rows[0]?.slug
}

/** The caller's organization's application, or a 404 (never another tenant's). */
export async function findApplicationRecord(
  context: RequestContext,
  applicationId: string,
): Promise<ApplicationRecord> {
  const rows = await context.db
    .select()
    .from(applications)
    .where(
      and(
        eq(applications.id, applicationId),
        eq(applications.organizationId, context.organization.id),
      ),
    )
    .limit(1)
  const record = rows[0]
  if (!record) throw notFound('Application not found')
  return record
}

export async function getApplication(context: RequestContext, applicationId: string) {
  const record = await findApplicationRecord(context, applicationId)
  const live = await liveApplicationIds(context.db, [record.id])
  return present(context, record, live.has(record.id))
}

export async function deleteApplicationRecord(context: RequestContext, applicationId: string) {
  await context.db
    .delete(applications)
    .where(
      and(
        eq(applications.id, applicationId),
        eq(applications.organizationId, context.organization.id),
      ),
    )
}

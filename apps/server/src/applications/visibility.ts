import { applications } from '@sprout/db/schema/applications.ts'
import {
  CHANGE_VISIBILITY_FORBIDDEN_TEXT,
  PERSONAL_APP_VISIBILITY_TEXT,
  type updateApplicationRequestSchema,
} from '@sprout/protocol/api/app-visibility.ts'
import { and, eq } from 'drizzle-orm'
import type { z } from 'zod'
import { badRequest, forbidden } from '../http/app-error.ts'
import type { RequestContext } from '../http/request-context.ts'
import { findApplicationRecord } from './service.ts'
import { visibilityChoices } from './visibility-choices.ts'

/**
 * `PATCH /api/applications/{id}`: who may open the app from now on. The apps host reads it
 * through a cache every instance flushes on the change (`flushAccess`), so it holds at once.
 */
export async function updateApplicationVisibility(
  context: RequestContext & { flushAccess: () => Promise<void> },
  applicationId: string,
  input: z.output<typeof updateApplicationRequestSchema>,
) {
  const record = await findApplicationRecord(context, applicationId)
  const choices = visibilityChoices(context.organization)
  if (choices.length === 0) throw forbidden(CHANGE_VISIBILITY_FORBIDDEN_TEXT)
  if (!choices.includes(input.visibility)) throw badRequest(PERSONAL_APP_VISIBILITY_TEXT)
  const allowedEmails = input.visibility === 'people' ? input.allowed_emails : []
  await context.db
    .update(applications)
    .set({ visibility: input.visibility, allowedEmails, updatedAt: new Date() })
    .where(
      and(eq(applications.id, record.id), eq(applications.organizationId, context.organization.id)),
    )
  await context.flushAccess()
  return { visibility: input.visibility, allowed_emails: allowedEmails }
}

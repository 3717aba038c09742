import type { Database } from '@sprout/db/database.ts'
import type { AppEnv, OrganizationContext } from './app-env.ts'
import type { Origins } from './origins.ts'

/** What a service acts with for one request: the database, the origins, who asks and where. */
export type RequestContext = {
  db: Database
  origins: Origins
  organization: OrganizationContext
  userId: string
}

/** The request context of a route behind `requireSession` and `requireOrganization`. */
export function requestContextOf(
  parts: { db: Database; origins: Origins },
  variables: AppEnv['Variables'],
): RequestContext {
  return {
    db: parts.db,
    origins: parts.origins,
    organization: variables.organization,
    userId: variables.user.id,
  }
}

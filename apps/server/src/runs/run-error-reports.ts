import type { ErrorReportsAccess } from '@sprout/agent/tools/tool-context.ts'
import type { Database } from '@sprout/db/database.ts'
import type { ErrorGroupStatus } from '@sprout/protocol/api/error-monitoring.ts'
import {
  findErrorGroup,
  listErrorGroups,
  updateErrorGroupStatus,
} from '../error-monitoring/service.ts'
import type { Origins } from '../http/origins.ts'
import type { RequestContext } from '../http/request-context.ts'

const statusOfAction = { resolve: 'resolved', suppress: 'ignored' } as const

/**
 * The agent's error tools (docs/product/tool-calls.md "Agent tool view of errors") see the error
 * groups of the run's application only, in its organization. `update` keeps the status; the
 * comment is shown in the chat with the call.
 */
export function runErrorReports(scope: {
  db: Database
  origins: Origins
  organizationId: string
  applicationId: string
}): ErrorReportsAccess {
  // The agent acts for the conversation's organization, as its members do on the Errors page.
  const context: RequestContext = {
    db: scope.db,
    origins: scope.origins,
    organization: { id: scope.organizationId, role: 'member', isPersonal: false },
    userId: '',
  }
  return {
    list: async (status, limit) =>
      (
        await listErrorGroups(context, {
          status,
          limit,
          application_id: scope.applicationId,
        })
      ).groups,
    update: async (action, groupId) => {
      if (action === 'update') return findErrorGroup(context, groupId, scope.applicationId)
      const status: ErrorGroupStatus = statusOfAction[action]
      return updateErrorGroupStatus(context, groupId, status, scope.applicationId)
    },
  }
}

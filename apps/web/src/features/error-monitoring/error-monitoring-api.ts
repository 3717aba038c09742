import {
  type ErrorGroup,
  type ErrorGroupList,
  type ErrorGroupStatus,
  type ErrorInstance,
  type ErrorStats,
  errorGroupListSchema,
  errorGroupSchema,
  errorInstanceListSchema,
  errorStatsSchema,
} from '@sprout/protocol/api/error-monitoring.ts'
import { apiRequest } from '../../lib/api-client.ts'
import { ApiError } from '../../lib/api-error.ts'

/**
 * docs/product/error-monitoring.md "Calls": the organization's error groups (the Errors page) and
 * one application's (the builder's list).
 */
export const errorGroupsQueryKey = ['error-groups'] as const

const appPath = (applicationId: string) => `/api/applications/${encodeURIComponent(applicationId)}`

/** A failed call keeps its status (401 is handled by the client) with the catalogue's text. */
async function call<T>(request: () => Promise<T>, message: string): Promise<T> {
  try {
    return await request()
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw error
    throw new ApiError(message, error instanceof ApiError ? error.status : 0)
  }
}

export type ErrorGroupQuery = {
  status: ErrorGroupStatus
  limit: number
  cursor?: string
  /** The Errors page's filter, or the builder's application. */
  applicationId?: string
}

export function listErrorGroups(query: ErrorGroupQuery): Promise<ErrorGroupList> {
  const params = new URLSearchParams({ status: query.status, limit: String(query.limit) })
  if (query.cursor) params.set('cursor', query.cursor)
  if (query.applicationId) params.set('application_id', query.applicationId)
  return call(
    async () => errorGroupListSchema.parse(await apiRequest(`/api/errors/groups?${params}`)),
    'Failed to fetch error groups',
  )
}

/** The builder's compact list: one application's groups. */
export function listApplicationErrorGroups(
  applicationId: string,
  status: ErrorGroupStatus,
  limit: number,
  cursor?: string,
): Promise<ErrorGroupList> {
  const params = new URLSearchParams({ status, limit: String(limit) })
  if (cursor) params.set('cursor', cursor)
  return call(
    async () =>
      errorGroupListSchema.parse(
        await apiRequest(`${appPath(applicationId)}/error-groups?${params}`),
      ),
    'Failed to fetch error groups',
  )
}

/** One application's counts: the builder's list is headed with its true number of active errors. */
export function applicationErrorStats(applicationId: string): Promise<ErrorStats> {
  return call(
    async () => errorStatsSchema.parse(await apiRequest(`${appPath(applicationId)}/error-stats`)),
    'Failed to fetch error counts',
  )
}

/** The newest occurrences of a group (10 by default). */
export function listGroupErrors(groupId: string): Promise<ErrorInstance[]> {
  return call(
    async () =>
      errorInstanceListSchema.parse(
        await apiRequest(`/api/errors/groups/${encodeURIComponent(groupId)}/errors`),
      ).errors,
    'Failed to fetch errors',
  )
}

export function updateErrorGroupStatus(
  groupId: string,
  status: ErrorGroupStatus,
): Promise<ErrorGroup> {
  return call(
    async () =>
      errorGroupSchema.parse(
        await apiRequest(`/api/errors/groups/${encodeURIComponent(groupId)}/status`, {
          method: 'PATCH',
          body: { status },
        }),
      ),
    'Failed to update error group status',
  )
}

import {
  type Application,
  applicationListSchema,
  applicationSchema,
} from '@sprout/protocol/api/applications.ts'
import { queryOptions } from '@tanstack/react-query'
import { apiRequest } from '../../lib/api-client.ts'

/** Every cached application answer starts with this key; invalidate it after a change. */
export const applicationsQueryKey = ['applications'] as const

export function applicationListQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: [...applicationsQueryKey, organizationId, 'list'],
    queryFn: async (): Promise<Application[]> =>
      applicationListSchema.parse(await apiRequest('/api/applications')),
  })
}

export function applicationQueryOptions(organizationId: string, applicationId: string) {
  return queryOptions({
    queryKey: [...applicationsQueryKey, organizationId, 'detail', applicationId],
    queryFn: async (): Promise<Application> =>
      applicationSchema.parse(
        await apiRequest(`/api/applications/${encodeURIComponent(applicationId)}`),
      ),
  })
}

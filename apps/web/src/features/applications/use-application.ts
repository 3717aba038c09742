import { useQuery } from '@tanstack/react-query'
import { applicationQueryOptions } from './application-queries.ts'

/** One application of the organization; a 404 error when it is not there (or not theirs). */
export function useApplication(organizationId: string, applicationId: string) {
  return useQuery(applicationQueryOptions(organizationId, applicationId))
}

import { useQuery } from '@tanstack/react-query'
import { applicationListQueryOptions } from './application-queries.ts'

/** The organization's applications, newest first. */
export function useApplications(organizationId: string) {
  return useQuery(applicationListQueryOptions(organizationId))
}

import { EDITOR_READY_POLL_INTERVAL_MS } from '@sprout/protocol/constants.ts'
import { useQuery } from '@tanstack/react-query'
import { fetchEditorReady } from './application-api.ts'
import { applicationsQueryKey } from './application-queries.ts'

/** Whether the application's dev box is up; polled once a second until it is, or has failed. */
export function useEditorReady(applicationId: string, enabled = true) {
  return useQuery({
    queryKey: [...applicationsQueryKey, 'editor-ready', applicationId],
    queryFn: ({ signal }) => fetchEditorReady(applicationId, signal),
    enabled,
    staleTime: 0,
    refetchInterval: (query) => {
      const readiness = query.state.data
      return readiness?.ready || readiness?.error ? false : EDITOR_READY_POLL_INTERVAL_MS
    },
  })
}

import type { LatestCheckResponse } from '@sprout/protocol/api/checks.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { fetchLatestCheck, latestCheckQueryKey, runCheck } from './checks-api.ts'

/** While a check runs elsewhere (after a run), its state is asked again this often. */
export const RUNNING_CHECK_POLL_MS = 2000
/**
 * How long after a run ends its check is looked for: it starts as the run closes, a moment after
 * the chat saw the answer end; a run that changed no file has none.
 */
export const RUN_CHECK_WAIT_MS = 15_000

/**
 * The app's last check and Check now (docs/product/checks.md "Shown on the run"): read on load,
 * again when a run of the builder ends (and every 2 s for a while after, until the run's check has
 * started), every 2 s while a check runs (Check now's too), and after a check made here.
 */
export function useLatestCheck(applicationId: string, agentRunning: boolean) {
  const queryClient = useQueryClient()
  const queryKey = latestCheckQueryKey(applicationId)
  const wasRunning = useRef(agentRunning)
  const [runEndedAt, setRunEndedAt] = useState<number | null>(null)
  useEffect(() => {
    if (wasRunning.current && !agentRunning) {
      setRunEndedAt(Date.now())
      void queryClient.invalidateQueries({ queryKey: latestCheckQueryKey(applicationId) })
    }
    wasRunning.current = agentRunning
  }, [agentRunning, applicationId, queryClient])
  const checkNow = useMutation({
    mutationFn: () => runCheck(applicationId),
    onSuccess: async (report) => {
      // A read of the check under way, answered late, must not bring 'Checking…' back.
      await queryClient.cancelQueries({ queryKey })
      queryClient.setQueryData<LatestCheckResponse>(queryKey, {
        check: { ...report, runId: null },
      })
    },
  })
  const latest = useQuery({
    queryKey,
    queryFn: () => fetchLatestCheck(applicationId),
    refetchInterval: (query) => {
      const check = query.state.data?.check
      // Check now answers only when done: meanwhile the stored check tells its part under way.
      if (checkNow.isPending || check?.state === 'running') return RUNNING_CHECK_POLL_MS
      if (runEndedAt === null || Date.now() - runEndedAt > RUN_CHECK_WAIT_MS) return false
      // The run's check is the one started after the run's answer ended.
      const started = check ? Date.parse(check.startedAt) : 0
      return started >= runEndedAt - 1000 ? false : RUNNING_CHECK_POLL_MS
    },
  })
  return { latest, checkNow }
}

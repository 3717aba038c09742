import type { EvaluationStatus } from '@sprout/protocol/api/evaluations.ts'
import { EVALUATION_STATUS_POLL_INTERVAL_MS } from '@sprout/protocol/constants.ts'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { fetchEvaluationStatus, startEvaluation } from './evaluations-api.ts'

export const evaluationStatusQueryKey = (id: string) => ['admin', 'evaluation-status', id] as const

export function isFinished(status: EvaluationStatus | undefined): boolean {
  return status === 'completed' || status === 'failed'
}

/**
 * docs/product/admin.md "Conversation Evaluations tab": an evaluation's status, polled every 2 s
 * until it is completed or failed, and never while the tab is hidden; a pending one is started.
 */
export function useEvaluationRun(id: string | undefined) {
  const queryClient = useQueryClient()
  const status = useQuery({
    queryKey: evaluationStatusQueryKey(id ?? ''),
    queryFn: () => fetchEvaluationStatus(id ?? ''),
    enabled: Boolean(id),
    refetchInterval: (query) =>
      isFinished(query.state.data?.status) ? false : EVALUATION_STATUS_POLL_INTERVAL_MS,
    refetchIntervalInBackground: false,
    staleTime: 0,
  })

  // Start once per evaluation, however often the pending status is fetched meanwhile.
  const started = useRef(new Set<string>())
  const [startError, setStartError] = useState<string | undefined>()
  const pending = status.data?.status === 'pending'
  useEffect(() => {
    if (!id || !pending || started.current.has(id)) return
    started.current.add(id)
    setStartError(undefined)
    startEvaluation(id)
      .catch((error: unknown) => {
        setStartError(error instanceof Error ? error.message : String(error))
      })
      .finally(() => queryClient.invalidateQueries({ queryKey: evaluationStatusQueryKey(id) }))
  }, [id, pending, queryClient])

  // A refused start matters only while the evaluation is still pending (another tab may have won).
  return { status, startError: pending ? startError : undefined }
}

import { useQueryClient } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { CheckSettledContext } from '../../components/checks/check-settled.ts'
import {
  type OpenCheckProblem,
  OpenCheckProblemContext,
} from '../../components/checks/open-check-problem.ts'
import { latestCheckQueryKey } from './checks-api.ts'

/**
 * What the chat's Checks blocks do in the builder (docs/product/checks.md "Shown on the run"): a
 * problem opens its file in the Code tab, and a check that ends is read by the toolbar at once.
 */
export function BuilderCheckContexts({
  applicationId,
  openFile,
  children,
}: {
  applicationId: string
  openFile: OpenCheckProblem
  children: ReactNode
}) {
  const queryClient = useQueryClient()
  const onCheckSettled = () =>
    void queryClient.invalidateQueries({ queryKey: latestCheckQueryKey(applicationId) })
  return (
    <OpenCheckProblemContext.Provider value={openFile}>
      <CheckSettledContext.Provider value={onCheckSettled}>{children}</CheckSettledContext.Provider>
    </OpenCheckProblemContext.Provider>
  )
}

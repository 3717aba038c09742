import type { VersionPage } from '@sprout/protocol/api/versions.ts'
import type { InfiniteData } from '@tanstack/react-query'
import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useState } from 'react'
import { RunChangesLink } from './run-changes-link.tsx'
import { versionsQueryKey } from './use-versions.ts'

export type HistoryPane = ReturnType<typeof useHistoryPane>

/**
 * The builder's History panel: open or not, the version the chat's '3 files changed' opened (the
 * link under a run, `renderRunFooter`), and `refresh` for when a run ends (a new version maybe).
 * The newest version when a run starts is kept: the link names a version only once the run has
 * made a newer one (a run that changed nothing has none).
 */
export function useHistoryPane(
  applicationId: string,
  agentRunning: boolean,
  onOpenVersion?: () => void,
) {
  const queryClient = useQueryClient()
  const [open, setOpen] = useState(false)
  const [versionId, setVersionId] = useState<string | null>(null)
  // Counts the openings: the panel starts afresh on each (the same link clicked twice reopens).
  const [openings, setOpenings] = useState(0)
  const [runEndedAt, setRunEndedAt] = useState<number | null>(null)
  /** undefined until a run starts here. */
  const [newestBeforeRun, setNewestBeforeRun] = useState<string | null | undefined>(undefined)
  useEffect(() => {
    if (!agentRunning) return
    const list = queryClient.getQueryData<InfiniteData<VersionPage>>([
      ...versionsQueryKey(applicationId),
      'list',
    ])
    setNewestBeforeRun(list?.pages[0]?.versions[0]?.id ?? null)
  }, [agentRunning, queryClient, applicationId])
  const openVersion = (id: string) => {
    setOpenings((count) => count + 1)
    setVersionId(id)
    setOpen(true)
    onOpenVersion?.()
  }
  const toggle = () => {
    setOpenings((count) => count + 1)
    setVersionId(null)
    setOpen((wasOpen) => !wasOpen)
  }
  const refresh = useCallback(() => {
    setRunEndedAt(Date.now())
    void queryClient.invalidateQueries({ queryKey: versionsQueryKey(applicationId) })
  }, [queryClient, applicationId])
  const renderRunFooter = (conversationId: string | null) => (
    <RunChangesLink
      applicationId={applicationId}
      conversationId={conversationId}
      notVersionId={newestBeforeRun}
      onOpen={openVersion}
    />
  )
  return {
    applicationId,
    open,
    versionId,
    openings,
    runEndedAt,
    openVersion,
    toggle,
    refresh,
    renderRunFooter,
  }
}

import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useRef, useState } from 'react'
import { RunChangesLink } from './run-changes-link.tsx'
import { versionsQueryKey } from './use-versions.ts'

export type HistoryPane = ReturnType<typeof useHistoryPane>

/**
 * The builder's History panel: open or not, the version the chat's '3 files changed' opened (the
 * link after each run, `renderRunFooter`, the same function on every render so the transcript's
 * slices stay memoized), and `refresh` for when a run ends (a new version maybe).
 */
export function useHistoryPane(applicationId: string, onOpenVersion?: () => void) {
  const queryClient = useQueryClient()
  const [open, setOpen] = useState(false)
  const [versionId, setVersionId] = useState<string | null>(null)
  // Counts the openings: the panel starts afresh on each (the same link clicked twice reopens).
  const [openings, setOpenings] = useState(0)
  const [runEndedAt, setRunEndedAt] = useState<number | null>(null)
  const onOpenRef = useRef(onOpenVersion)
  onOpenRef.current = onOpenVersion
  const openVersion = useCallback((id: string) => {
    setOpenings((count) => count + 1)
    setVersionId(id)
    setOpen(true)
    onOpenRef.current?.()
  }, [])
  const toggle = () => {
    setOpenings((count) => count + 1)
    setVersionId(null)
    setOpen((wasOpen) => !wasOpen)
  }
  const refresh = useCallback(() => {
    setRunEndedAt(Date.now())
    void queryClient.invalidateQueries({ queryKey: versionsQueryKey(applicationId) })
  }, [queryClient, applicationId])
  const renderRunFooter = useCallback(
    (runId: string) => (
      <RunChangesLink applicationId={applicationId} runId={runId} onOpen={openVersion} />
    ),
    [applicationId, openVersion],
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

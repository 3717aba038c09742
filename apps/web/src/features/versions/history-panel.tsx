import type { Version } from '@sprout/protocol/api/versions.ts'
import { useState } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { CenteredSpinner } from '../../components/ui/spinner.tsx'
import { useVersions } from './use-versions.ts'
import { VersionDetail } from './version-detail.tsx'
import { VersionList } from './version-list.tsx'

export type HistoryPanelProps = {
  applicationId: string
  /** After a restore made `version`: the builder reloads the preview. */
  onRestored?: (version: Version) => void
  /** Opens on this version's diff (the chat's '3 files changed' link). */
  openVersionId?: string | null
  /** When the last run ended (a timestamp): its version is looked for a while. */
  runEndedAt?: number | null
  /** Closes the panel: its header's 'Close', reachable from the Code tab too. */
  onClose?: () => void
}

/**
 * docs/product/versions.md "History": the app's versions, newest first, 50 a page with 'Load
 * more'; a version opens its diff, from where it can be restored.
 */
export function HistoryPanel({
  applicationId,
  onRestored,
  openVersionId,
  runEndedAt = null,
  onClose,
}: HistoryPanelProps) {
  const versions = useVersions(applicationId, runEndedAt, { panelOpen: true })
  // Opened on a version (given a new `key` to open another).
  const [openId, setOpenId] = useState<string | null>(openVersionId ?? null)

  const all = versions.data?.pages.flatMap((page) => page.versions) ?? []
  if (openId) {
    return (
      <section aria-label="History" className="flex min-h-0 flex-1 flex-col">
        <VersionDetail
          applicationId={applicationId}
          versionId={openId}
          onBack={() => setOpenId(null)}
          onRestored={(version) => {
            setOpenId(null)
            onRestored?.(version)
          }}
        />
      </section>
    )
  }
  return (
    <section aria-label="History" className="flex min-h-0 flex-1 flex-col">
      <header className="flex items-center gap-2 border-b border-zinc-200 px-4 py-3">
        <h2 className="text-sm font-semibold text-zinc-900">History</h2>
        {versions.data && (
          <span className="text-xs text-zinc-500">
            {versionCountText(versions.data.pages[0]?.total ?? 0)}
          </span>
        )}
        {onClose && (
          <Button variant="ghost" size="sm" className="ml-auto" onClick={onClose}>
            Close
          </Button>
        )}
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {versions.isPending && <CenteredSpinner label="Loading versions..." />}
        {versions.isError && (
          <div className="p-4">
            <Alert>{versions.error.message}</Alert>
          </div>
        )}
        {versions.isSuccess && all.length === 0 && (
          <p className="p-4 text-sm text-zinc-500">
            No versions yet. Each run that changes files makes one.
          </p>
        )}
        <VersionList versions={all} onOpen={(version) => setOpenId(version.id)} />
        {versions.hasNextPage && (
          <div className="flex justify-center p-3">
            <Button
              variant="secondary"
              size="sm"
              disabled={versions.isFetchingNextPage}
              onClick={() => void versions.fetchNextPage()}
            >
              {versions.isFetchingNextPage ? 'Loading...' : 'Load more'}
            </Button>
          </div>
        )}
      </div>
    </section>
  )
}

/** '12 versions', '1 version'. */
function versionCountText(total: number): string {
  return total === 1 ? '1 version' : `${total} versions`
}

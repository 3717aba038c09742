import type { Version } from '@sprout/protocol/api/versions.ts'
import { useEffect, useRef, useState } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { CenteredSpinner } from '../../components/ui/spinner.tsx'
import { focusOnMount } from './focus-on-mount.ts'
import { RestoreProgressRow } from './restore-progress.tsx'
import {
  type RestoreRequest,
  usePendingRestores,
  useRestoreVersion,
  useVersions,
} from './use-versions.ts'
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
  /** Closes the panel: the 'Close' of its list and of a diff, reachable from the Code tab too. */
  onClose?: () => void
}

/**
 * docs/product/versions.md "History": the app's versions, newest first, 50 a page with 'Load
 * more'; a version opens its diff, from where it can be restored. Escape closes the diff, back to
 * where it was opened from (the list, or the chat's link: then the panel closes).
 */
export function HistoryPanel({
  applicationId,
  onRestored,
  openVersionId,
  runEndedAt = null,
  onClose,
}: HistoryPanelProps) {
  const versions = useVersions(applicationId, runEndedAt, { panelOpen: true })
  const restore = useRestoreVersion(applicationId, (version) => onRestored?.(version))
  const pendingRestores = usePendingRestores(applicationId)
  // Opened on a version (given a new `key` to open another).
  const [openId, setOpenId] = useState<string | null>(openVersionId ?? null)
  const [fromLink, setFromLink] = useState(Boolean(openVersionId))
  const sectionRef = useRef<HTMLElement>(null)

  useEffect(() => {
    const closeTop = () => {
      if (openId && !(fromLink && onClose)) {
        setOpenId(null)
      } else {
        onClose?.()
      }
    }
    // Captured before the builder's Escape (which interrupts the run): the open layer closes
    // first. A dialog (the restore's) keeps its own Escape.
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return
      if (document.querySelector('[aria-modal="true"]')) return
      const target = event.target
      const inside = target instanceof Node && sectionRef.current?.contains(target)
      if (!inside && target !== document.body) return
      if (!openId && !onClose) return
      event.preventDefault()
      event.stopPropagation()
      closeTop()
    }
    document.addEventListener('keydown', onKeyDown, true)
    return () => document.removeEventListener('keydown', onKeyDown, true)
  }, [openId, fromLink, onClose])

  const startRestore = (request: RestoreRequest) => {
    setOpenId(null)
    restore.mutate(request)
  }
  const all = versions.data?.pages.flatMap((page) => page.versions) ?? []
  return (
    <section ref={sectionRef} aria-label="History" className="flex min-h-0 flex-1 flex-col">
      {openId ? (
        <VersionDetail
          applicationId={applicationId}
          versionId={openId}
          onBack={() => {
            setFromLink(false)
            setOpenId(null)
          }}
          onClose={onClose}
          onRestore={startRestore}
        />
      ) : (
        <>
          <header className="flex items-center gap-2 border-b border-zinc-200 px-4 py-3">
            <h2 className="text-sm font-semibold text-zinc-900">History</h2>
            {versions.data && (
              <span className="text-xs text-zinc-600">
                {versionCountText(versions.data.pages[0]?.total ?? 0)}
              </span>
            )}
            {onClose && (
              <Button variant="ghost" size="sm" className="ml-auto" onClick={onClose}>
                Close
              </Button>
            )}
          </header>
          <section
            aria-label="Versions of the app"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a keyboard scrolls the list (axe "scrollable-region-focusable")
            tabIndex={0}
            ref={focusOnMount}
            className="min-h-0 flex-1 overflow-y-auto focus-visible:outline-offset-[-2px]"
          >
            {restore.isError && restore.variables && (
              <div className="p-4">
                <Alert>
                  Version {restore.variables.version.number} was not restored:{' '}
                  {restore.error.message}
                </Alert>
              </div>
            )}
            {pendingRestores.map((pending) => (
              <RestoreProgressRow key={pending.submittedAt} restore={pending} />
            ))}
            {versions.isPending && <CenteredSpinner label="Loading versions..." />}
            {versions.isError && (
              <div className="p-4">
                <Alert>{versions.error.message}</Alert>
              </div>
            )}
            {versions.isSuccess && all.length === 0 && (
              <p className="p-4 text-sm text-zinc-600">
                No versions yet. Each run that changes files makes one.
              </p>
            )}
            <VersionList
              versions={all}
              onOpen={(version) => {
                restore.reset()
                setFromLink(false)
                setOpenId(version.id)
              }}
            />
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
          </section>
        </>
      )}
    </section>
  )
}

/** '12 versions', '1 version'. */
function versionCountText(total: number): string {
  return total === 1 ? '1 version' : `${total} versions`
}

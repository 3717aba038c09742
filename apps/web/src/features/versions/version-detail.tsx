import { useState } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { CenteredSpinner } from '../../components/ui/spinner.tsx'
import { filesChangedText, LineCounts, lineTotals } from './change-counts.tsx'
import { DiffView } from './diff-view.tsx'
import { focusOnMount } from './focus-on-mount.ts'
import { RestoreDialog } from './restore-dialog.tsx'
import { type RestoreRequest, useVersionDiff } from './use-versions.ts'
import { VersionKindBadge } from './version-kind-badge.tsx'

type VersionDetailProps = {
  applicationId: string
  versionId: string
  onBack: () => void
  /** Closes the History panel (from the Code tab, the only way). */
  onClose?: () => void
  /** Confirmed in the dialog: the panel shows the restore's progress in its list. */
  onRestore: (request: RestoreRequest) => void
}

/** docs/product/versions.md "Diffs" and "Restore": one version's diff and its restore button. */
export function VersionDetail({
  applicationId,
  versionId,
  onBack,
  onClose,
  onRestore,
}: VersionDetailProps) {
  const diff = useVersionDiff(applicationId, versionId)
  const [confirming, setConfirming] = useState(false)
  const version = diff.data?.version
  return (
    <>
      <header className="flex flex-wrap items-center gap-2 border-b border-zinc-200 px-4 py-3">
        <Button variant="ghost" size="sm" onClick={onBack}>
          ← All versions
        </Button>
        {version && (
          <>
            <h2 className="text-sm font-semibold text-zinc-900">Version {version.number}</h2>
            <VersionKindBadge kind={version.kind} />
          </>
        )}
        <span className="ml-auto flex items-center gap-2">
          {version && (
            <Button variant="secondary" size="sm" onClick={() => setConfirming(true)}>
              Restore this version
            </Button>
          )}
          {onClose && (
            <Button variant="ghost" size="sm" onClick={onClose}>
              Close
            </Button>
          )}
        </span>
      </header>
      <section
        aria-label={version ? `Changes of version ${version.number}` : 'Changes'}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a keyboard scrolls the diff (axe "scrollable-region-focusable")
        tabIndex={0}
        ref={focusOnMount}
        className="min-h-0 flex-1 overflow-y-auto p-4 focus-visible:outline-offset-[-2px]"
      >
        {diff.isPending && <CenteredSpinner label="Loading diff..." />}
        {diff.isError && <Alert>{diff.error.message}</Alert>}
        {diff.data && version && (
          <div className="flex flex-col gap-3">
            <p className="text-sm text-zinc-700">{version.title}</p>
            <p className="flex items-center gap-2 text-xs text-zinc-600">
              <span>{filesChangedText(diff.data.files.length)}</span>
              <LineCounts {...lineTotals(diff.data.files)} />
            </p>
            <DiffView diff={diff.data} />
          </div>
        )}
      </section>
      {confirming && version && (
        <RestoreDialog
          version={version}
          onCancel={() => setConfirming(false)}
          onConfirm={(restoreData) => {
            setConfirming(false)
            onRestore({ version, restoreData })
          }}
        />
      )}
    </>
  )
}

import type { Version } from '@sprout/protocol/api/versions.ts'
import { useState } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { CenteredSpinner } from '../../components/ui/spinner.tsx'
import { filesChangedText, LineCounts, lineTotals } from './change-counts.tsx'
import { DiffView } from './diff-view.tsx'
import { RestoreDialog } from './restore-dialog.tsx'
import { useRestoreVersion, useVersionDiff } from './use-versions.ts'
import { VersionKindBadge } from './version-kind-badge.tsx'

type VersionDetailProps = {
  applicationId: string
  versionId: string
  onBack: () => void
  onRestored: (version: Version) => void
}

/** docs/product/versions.md "Diffs" and "Restore": one version's diff and its restore button. */
export function VersionDetail({
  applicationId,
  versionId,
  onBack,
  onRestored,
}: VersionDetailProps) {
  const diff = useVersionDiff(applicationId, versionId)
  const restore = useRestoreVersion(applicationId, onRestored)
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
            <Button
              variant="secondary"
              size="sm"
              className="ml-auto"
              onClick={() => {
                restore.reset()
                setConfirming(true)
              }}
            >
              Restore this version
            </Button>
          </>
        )}
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto p-4">
        {diff.isPending && <CenteredSpinner label="Loading diff..." />}
        {diff.isError && <Alert>{diff.error.message}</Alert>}
        {diff.data && version && (
          <div className="flex flex-col gap-3">
            <p className="text-sm text-zinc-700">{version.title}</p>
            <p className="flex items-center gap-2 text-xs text-zinc-500">
              <span>{filesChangedText(diff.data.files.length)}</span>
              <LineCounts {...lineTotals(diff.data.files)} />
            </p>
            <DiffView diff={diff.data} />
          </div>
        )}
      </div>
      {confirming && version && (
        <RestoreDialog
          version={version}
          busy={restore.isPending}
          error={restore.error?.message}
          onCancel={() => setConfirming(false)}
          onConfirm={(restoreData) =>
            restore.mutate(
              { versionId: version.id, request: restoreData ? { restoreData } : {} },
              { onSuccess: () => setConfirming(false) },
            )
          }
        />
      )}
    </>
  )
}

import type { Version } from '@sprout/protocol/api/versions.ts'
import { HistoryPanel } from './history-panel.tsx'
import type { HistoryPane } from './use-history-pane.tsx'

/** The History panel as a column beside the preview, while open (until the pane has tabs). */
export function HistoryColumn({
  pane,
  onRestored,
}: {
  pane: HistoryPane
  onRestored: (version: Version) => void
}) {
  if (!pane.open) return null
  return (
    <div className="flex min-h-0 w-96 shrink-0 flex-col border-l border-zinc-200">
      <HistoryPanel
        key={pane.openings}
        applicationId={pane.applicationId}
        openVersionId={pane.versionId}
        runEndedAt={pane.runEndedAt}
        onRestored={onRestored}
        onClose={pane.toggle}
      />
    </div>
  )
}

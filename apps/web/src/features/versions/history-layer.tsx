import type { Version } from '@sprout/protocol/api/versions.ts'
import { HistoryPanel } from './history-panel.tsx'
import type { HistoryPane } from './use-history-pane.tsx'

/**
 * The History panel while open, as a layer over the chat (on a phone, over the Preview tab): its
 * diffs get the room to be read, and the preview and the Code tab beside it keep theirs
 * (docs/product/versions.md "History").
 */
export function HistoryLayer({
  pane,
  onRestored,
}: {
  pane: HistoryPane
  onRestored: (version: Version) => void
}) {
  if (!pane.open) return null
  return (
    <div className="absolute inset-0 z-20 flex min-h-0 flex-col bg-white">
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

import type { Version } from '@sprout/protocol/api/versions.ts'
import type { ReactNode } from 'react'
import { HistoryPanel } from './history-panel.tsx'
import type { HistoryPane } from './use-history-pane.tsx'

type HistoryLayerProps = {
  pane: HistoryPane
  onRestored: (version: Version) => void
  /** Whether History shows here: over the chat, or on a phone over the Preview tab. */
  covers: boolean
  children: ReactNode
}

/**
 * The History panel while open, in the place of what it covers (`children`: the chat; on a phone,
 * the Preview tab): its diffs get the room to be read, and the preview and the Code tab beside it
 * keep theirs (docs/product/versions.md "History"). What it covers is hidden, never unmounted (a
 * draft, the running preview live on), and out of the keyboard's way meanwhile.
 */
export function HistoryLayer({ pane, onRestored, covers, children }: HistoryLayerProps) {
  const shown = pane.open && covers
  return (
    <>
      <div className={shown ? 'hidden' : 'contents'}>{children}</div>
      {shown && <OpenHistory pane={pane} onRestored={onRestored} />}
    </>
  )
}

function OpenHistory({
  pane,
  onRestored,
}: {
  pane: HistoryPane
  onRestored: (version: Version) => void
}) {
  return (
    <div className="flex min-h-0 min-w-0 flex-1 flex-col bg-white">
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

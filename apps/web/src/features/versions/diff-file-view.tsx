import { DIFF_FILE_COLLAPSE_LINES, type DiffFile } from '@sprout/protocol/api/versions.ts'
import { useState } from 'react'
import { Button } from '../../components/ui/button.tsx'
import { LineCounts } from './change-counts.tsx'
import { PatchBody } from './patch-body.tsx'
import type { DiffLayout } from './render-patch.ts'

const statusLabels: Record<DiffFile['status'], string> = {
  added: 'Added',
  modified: 'Modified',
  deleted: 'Deleted',
  renamed: 'Renamed',
}

/**
 * docs/product/versions.md "Diffs": a file's header and its hunks; a binary file is only named,
 * a large one starts collapsed behind 'Show'.
 */
type DiffFileViewProps = {
  file: DiffFile
  layout: DiffLayout
  /** Drawn at once rather than when scrolled near (the first files of the diff). */
  eager: boolean
}

export function DiffFileView({ file, layout, eager }: DiffFileViewProps) {
  const large = file.lines > DIFF_FILE_COLLAPSE_LINES
  const [shown, setShown] = useState(!large)
  return (
    <section
      aria-label={file.path}
      data-testid="diff-file"
      className="overflow-hidden rounded-lg border border-zinc-200"
    >
      <header className="flex items-center gap-2 border-b border-zinc-200 bg-zinc-50 px-3 py-2">
        <span className="min-w-0 truncate font-mono text-xs text-zinc-800" title={file.path}>
          {file.previousPath ? `${file.previousPath} → ${file.path}` : file.path}
        </span>
        <span className="text-xs text-zinc-500">{statusLabels[file.status]}</span>
        <span className="ml-auto">
          {file.binary ? (
            <span className="text-xs text-zinc-500">Binary file</span>
          ) : (
            <LineCounts added={file.added ?? 0} removed={file.removed ?? 0} />
          )}
        </span>
      </header>
      {!file.binary && !shown && (
        <div className="flex items-center gap-3 px-3 py-2 text-sm text-zinc-600">
          <span>Large diff ({file.lines} lines)</span>
          <Button variant="secondary" size="sm" onClick={() => setShown(true)}>
            Show
          </Button>
        </div>
      )}
      {!file.binary && shown && <PatchBody file={file} layout={layout} eager={eager} />}
      {file.truncated && shown && (
        <p className="border-t border-zinc-200 px-3 py-2 text-xs text-zinc-500">
          This diff is cut: the file's changes are too large to show in full.
        </p>
      )}
    </section>
  )
}

import type { VersionDiff } from '@sprout/protocol/api/versions.ts'
import { useState } from 'react'
import { classNames } from '../../lib/class-names.ts'
import { DiffFileView } from './diff-file-view.tsx'
import type { DiffLayout } from './render-patch.ts'

/** The files drawn at once; the rest are drawn as they are scrolled near. */
const EAGER_FILES = 3

const layouts: { id: DiffLayout; label: string }[] = [
  { id: 'unified', label: 'Unified' },
  { id: 'split', label: 'Side by side' },
]

/** docs/product/versions.md "Diffs": every file the version changed, unified or side by side. */
export function DiffView({ diff }: { diff: VersionDiff }) {
  const [layout, setLayout] = useState<DiffLayout>('unified')
  return (
    <div className="flex flex-col gap-3">
      <fieldset className="flex gap-1 self-start rounded-lg bg-zinc-100 p-0.5">
        <legend className="sr-only">Diff layout</legend>
        {layouts.map((option) => (
          <button
            key={option.id}
            type="button"
            aria-pressed={layout === option.id}
            onClick={() => setLayout(option.id)}
            className={classNames(
              'rounded-md px-2.5 py-1 text-xs font-medium',
              layout === option.id ? 'bg-white text-zinc-900 shadow-sm' : 'text-zinc-600',
            )}
          >
            {option.label}
          </button>
        ))}
      </fieldset>
      {diff.files.length === 0 && <p className="text-sm text-zinc-500">No files changed.</p>}
      {diff.files.map((file, index) => (
        <DiffFileView key={file.path} file={file} layout={layout} eager={index < EAGER_FILES} />
      ))}
    </div>
  )
}

import type { VersionFileChange } from '@sprout/protocol/api/versions.ts'

/** '3 files changed' (docs/product/versions.md "History"). */
export function filesChangedText(count: number): string {
  return count === 1 ? '1 file changed' : `${count} files changed`
}

/** The added and removed lines of some files; binary files count none. */
export function lineTotals(files: readonly VersionFileChange[]): {
  added: number
  removed: number
} {
  let added = 0
  let removed = 0
  for (const file of files) {
    added += file.added ?? 0
    removed += file.removed ?? 0
  }
  return { added, removed }
}

/** '+12 −3', green and red. */
export function LineCounts({ added, removed }: { added: number; removed: number }) {
  return (
    <span className="font-mono text-xs tabular-nums">
      <span className="text-emerald-700">+{added}</span>{' '}
      <span className="text-red-600">−{removed}</span>
    </span>
  )
}

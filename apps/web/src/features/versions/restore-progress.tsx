import { Spinner } from '../../components/ui/spinner.tsx'
import { useNow } from '../../hooks/use-now.ts'
import type { PendingRestore } from './use-versions.ts'

/** docs/product/versions.md "Restore": what a restore under way is doing, word for word. */
export function restoreProgressText({ version, restoreData }: PendingRestore): string {
  const data = restoreData ? ", and the preview's data with them" : ''
  return `Keeping unsaved edits as their own version, then bringing back the files of version ${version.number}${data}. A new version follows.`
}

/**
 * The row a restore holds at the top of the History list until its version is recorded (it takes
 * 10–20 s in the app's dev box): never a silent wait.
 */
export function RestoreProgressRow({ restore }: { restore: PendingRestore }) {
  const now = useNow(1000)
  const seconds = Math.max(0, Math.floor((now.getTime() - restore.submittedAt) / 1000))
  return (
    <div
      role="status"
      data-testid="restore-progress"
      className="flex flex-col gap-1 border-b border-zinc-100 bg-accent-50 px-4 py-3"
    >
      <span className="flex items-center gap-2">
        <Spinner className="size-4" />
        <span className="text-sm font-semibold text-zinc-900">
          Restoring version {restore.version.number}…
        </span>
        {/* Hidden from screen readers: a live region would read it out every second. */}
        <span aria-hidden="true" className="ml-auto text-xs tabular-nums text-zinc-600">
          {seconds} s
        </span>
      </span>
      <span className="text-sm text-zinc-700">{restoreProgressText(restore)}</span>
    </div>
  )
}

import type { Version } from '@sprout/protocol/api/versions.ts'
import { type FormEvent, type KeyboardEvent, useState } from 'react'
import { Button } from '../../components/ui/button.tsx'
import { Dialog } from '../../components/ui/dialog.tsx'

type RestoreDialogProps = {
  version: Version
  onConfirm: (restoreData: boolean) => void
  onCancel: () => void
}

/**
 * docs/product/versions.md "Restore": names the version and says that nothing is lost. Restoring
 * is never destructive, so Enter confirms (the Restore button takes the focus); Escape cancels.
 * The restore then shows its progress in the History list, where its version will be.
 */
export function RestoreDialog({ version, onConfirm, onCancel }: RestoreDialogProps) {
  const [restoreData, setRestoreData] = useState(false)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onConfirm(restoreData && version.hasDataSnapshot)
  }
  // Enter on the checkbox confirms too (a form submits on Enter only from text fields).
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key === 'Enter' && event.target instanceof HTMLInputElement) {
      event.preventDefault()
      event.currentTarget.requestSubmit()
    }
  }
  return (
    <Dialog
      open
      size="sm"
      title={`Restore version ${version.number}?`}
      description={
        <>
          The app's files go back to version {version.number} ({version.title}). This makes a new
          version: the versions after it stay in the history and can be restored too.
        </>
      }
      onClose={onCancel}
    >
      <form onSubmit={submit} onKeyDown={onKeyDown} className="flex flex-col gap-4 pb-6">
        {version.hasDataSnapshot && (
          <label className="flex items-center gap-2 text-sm text-zinc-700">
            <input
              type="checkbox"
              checked={restoreData}
              onChange={(event) => setRestoreData(event.target.checked)}
              className="size-4 rounded border-zinc-300"
            />
            Also restore the preview's data
          </label>
        )}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" data-autofocus>
            Restore
          </Button>
        </div>
      </form>
    </Dialog>
  )
}

import type { Version } from '@sprout/protocol/api/versions.ts'
import { type FormEvent, type KeyboardEvent, useState } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Dialog } from '../../components/ui/dialog.tsx'

type RestoreDialogProps = {
  version: Version
  busy: boolean
  error?: string
  onConfirm: (restoreData: boolean) => void
  onCancel: () => void
}

/**
 * docs/product/versions.md "Restore": names the version and says that nothing is lost. Restoring
 * is never destructive, so Enter confirms (the Restore button takes the focus); Escape cancels.
 */
export function RestoreDialog({ version, busy, error, onConfirm, onCancel }: RestoreDialogProps) {
  const [restoreData, setRestoreData] = useState(false)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!busy) onConfirm(restoreData && version.hasDataSnapshot)
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
      onClose={busy ? undefined : onCancel}
    >
      <form onSubmit={submit} onKeyDown={onKeyDown} className="flex flex-col gap-4 pb-6">
        {version.hasDataSnapshot && (
          <label className="flex items-center gap-2 text-sm text-zinc-700">
            <input
              type="checkbox"
              checked={restoreData}
              onChange={(event) => setRestoreData(event.target.checked)}
              disabled={busy}
              className="size-4 rounded border-zinc-300"
            />
            Also restore the preview's data
          </label>
        )}
        {error && <Alert>{error}</Alert>}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy} data-autofocus>
            {busy ? 'Restoring...' : 'Restore'}
          </Button>
        </div>
      </form>
    </Dialog>
  )
}

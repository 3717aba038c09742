import { Button } from '../../components/ui/button.tsx'
import { Dialog } from '../../components/ui/dialog.tsx'

/** docs/product/versions.md "Code": the file changed since it was opened (the agent, or a restore). */
export function ConflictDialog({
  path,
  busy,
  onReload,
  onOverwrite,
  onCancel,
}: {
  path: string
  busy: boolean
  onReload: () => void
  onOverwrite: () => void
  onCancel: () => void
}) {
  return (
    <Dialog
      open
      size="sm"
      title="This file changed since you opened it"
      description={
        <>
          {path} was changed after you opened it. Reload it to see the new version (your unsaved
          changes are dropped), or overwrite it with your version.
        </>
      }
      onClose={busy ? undefined : onCancel}
    >
      <div className="flex flex-col-reverse gap-2 pb-6 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onReload} disabled={busy}>
          Reload
        </Button>
        <Button variant="danger" onClick={onOverwrite} disabled={busy}>
          Overwrite
        </Button>
      </div>
    </Dialog>
  )
}

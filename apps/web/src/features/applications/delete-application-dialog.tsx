import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx'

type DeleteApplicationDialogProps = {
  /** The application to delete; the dialog is closed while there is none. */
  name: string | undefined
  isDeleting: boolean
  error?: string
  onConfirm: () => void
  onCancel: () => void
}

/**
 * docs/product/applications.md "Delete": asks before deleting, naming the application in quotes.
 */
export function DeleteApplicationDialog({
  name,
  isDeleting,
  error,
  onConfirm,
  onCancel,
}: DeleteApplicationDialogProps) {
  return (
    <ConfirmDialog
      open={name !== undefined}
      title="Delete Application"
      message={
        <>
          <p>{`Are you sure you want to delete "${name ?? ''}"?`}</p>
          <p className="mt-1">This action cannot be undone.</p>
        </>
      }
      confirmLabel="Delete"
      busyLabel="Deleting..."
      busy={isDeleting}
      error={error}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  )
}

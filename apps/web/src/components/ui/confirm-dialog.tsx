import type { ReactNode } from 'react'
import { Alert } from './alert.tsx'
import { Button } from './button.tsx'
import { Dialog } from './dialog.tsx'

type ConfirmDialogProps = {
  open: boolean
  title: string
  message: ReactNode
  confirmLabel: string
  /** Shown on the confirm button while `busy`, e.g. 'Deleting...'. */
  busyLabel: string
  busy: boolean
  error?: string
  tone?: 'danger' | 'primary'
  onConfirm: () => void
  onCancel: () => void
}

/** Asks before something that cannot be taken back; Escape and Cancel say no. */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  busyLabel,
  busy,
  error,
  tone = 'danger',
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      size="sm"
      title={title}
      description={message}
      onClose={busy ? undefined : onCancel}
      footer={
        <>
          {/* Cancel takes the focus, so a stray Enter never confirms. */}
          <Button variant="secondary" onClick={onCancel} disabled={busy} data-autofocus>
            Cancel
          </Button>
          <Button
            variant={tone === 'danger' ? 'danger' : 'primary'}
            onClick={onConfirm}
            disabled={busy}
          >
            {busy ? busyLabel : confirmLabel}
          </Button>
        </>
      }
    >
      {error && <Alert>{error}</Alert>}
    </Dialog>
  )
}

import { BAN_REASON_MAX } from '@sprout/protocol/api/admin-users.ts'
import { type FormEvent, useId, useState } from 'react'
import { Alert } from '../../../components/ui/alert.tsx'
import { Button } from '../../../components/ui/button.tsx'
import { Dialog } from '../../../components/ui/dialog.tsx'
import { TextField } from '../../../components/ui/text-field.tsx'
import { userTexts } from './user-texts.ts'

type BanDialogProps = {
  name: string
  busy: boolean
  error?: string
  onBan: (reason: string) => void
  onCancel: () => void
}

/** Asks for the ban's reason; Enter bans, Escape and Cancel close it. */
export function BanDialog({ name, busy, error, onBan, onCancel }: BanDialogProps) {
  const formId = useId()
  const [reason, setReason] = useState('')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (reason.trim() !== '') onBan(reason.trim())
  }
  return (
    <Dialog
      open
      size="sm"
      title={`${userTexts.banTitle}: ${name}`}
      description={userTexts.banDescription}
      onClose={busy ? undefined : onCancel}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button
            type="submit"
            form={formId}
            variant="danger"
            disabled={busy || reason.trim() === ''}
          >
            {busy ? userTexts.banBusy : userTexts.banConfirm}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} className="flex flex-col gap-3">
        {error && <Alert>{error}</Alert>}
        <TextField
          label={userTexts.reasonLabel}
          name="reason"
          value={reason}
          maxLength={BAN_REASON_MAX}
          onChange={(event) => setReason(event.target.value)}
          required
          data-autofocus
        />
      </form>
    </Dialog>
  )
}

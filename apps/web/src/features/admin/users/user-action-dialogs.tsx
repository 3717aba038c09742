import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx'
import { BanDialog } from './ban-dialog.tsx'
import type { useUserActions } from './use-user-actions.ts'
import { confirmations } from './user-texts.ts'

/** The ban's reason or the confirmation an action waits for, with its error. */
export function UserActionDialogs({ actions }: { actions: ReturnType<typeof useUserActions> }) {
  const { asking } = actions
  if (!asking) return null
  if (asking.action === 'ban') {
    return (
      <BanDialog
        name={asking.user.name}
        busy={actions.busy}
        error={actions.error}
        onBan={(reason) => actions.confirm(reason)}
        onCancel={actions.cancel}
      />
    )
  }
  const texts = confirmations[asking.action](asking.user)
  return (
    <ConfirmDialog
      open
      tone={asking.action === 'make-admin' ? 'primary' : 'danger'}
      title={texts.title}
      message={texts.message}
      confirmLabel={texts.confirm}
      busyLabel={texts.busy}
      busy={actions.busy}
      error={actions.error}
      onConfirm={() => actions.confirm()}
      onCancel={actions.cancel}
    />
  )
}

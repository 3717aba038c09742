import { useState } from 'react'
import { iconButtonClasses } from '../../components/ui/icon-button.tsx'
import { LockIcon, UnlockIcon } from '../../components/ui/icons.tsx'
import {
  APP_ACCESS_TITLE,
  AppAccessDialog,
  type AppAccessDialogProps,
} from './app-access-dialog.tsx'

type AppAccessButtonProps = Pick<AppAccessDialogProps, 'access' | 'organizationName' | 'onSave'>

/**
 * The preview toolbar's 'Who can open it' button (docs/product/builder.md "Who can open it"):
 * a lock while the deploy is not public; absent for those who may not change it.
 */
export function AppAccessButton({ access, organizationName, onSave }: AppAccessButtonProps) {
  const [open, setOpen] = useState(false)
  if (access.visibility_choices.length === 0) return null
  return (
    <>
      <button
        type="button"
        aria-label={APP_ACCESS_TITLE}
        title={APP_ACCESS_TITLE}
        data-visibility={access.visibility}
        onClick={() => setOpen(true)}
        className={iconButtonClasses}
      >
        {access.visibility === 'public' ? <UnlockIcon /> : <LockIcon />}
      </button>
      <AppAccessDialog
        open={open}
        access={access}
        organizationName={organizationName}
        onSave={onSave}
        onClose={() => setOpen(false)}
      />
    </>
  )
}

import { useState } from 'react'
import { Button } from '../../components/ui/button.tsx'
import { AccountSection } from './account-section.tsx'
import { DeleteAccountDialog } from './delete-account-dialog.tsx'

export function DeleteAccountSection({ email }: { email: string }) {
  const [open, setOpen] = useState(false)
  return (
    <AccountSection
      title="Delete account"
      tone="danger"
      description="Delete your account, your personal applications and everything in them. This cannot be undone."
    >
      <Button variant="danger" onClick={() => setOpen(true)}>
        Delete account
      </Button>
      {open && <DeleteAccountDialog email={email} onClose={() => setOpen(false)} />}
    </AccountSection>
  )
}

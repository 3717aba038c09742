import { useState } from 'react'
import { iconButtonClasses } from '../../components/ui/icon-button.tsx'
import { KeyIcon } from '../../components/ui/icons.tsx'
import { VaultModal } from './vault-modal.tsx'

/** The preview toolbar's 'Vault Secrets' button (docs/product/builder.md "Preview pane"). */
export function VaultButton({ applicationId }: { applicationId: string }) {
  const [open, setOpen] = useState(false)
  return (
    <>
      <button
        type="button"
        aria-label="Vault Secrets"
        title="Vault Secrets"
        onClick={() => setOpen(true)}
        className={iconButtonClasses}
      >
        <KeyIcon />
      </button>
      <VaultModal applicationId={applicationId} open={open} onClose={() => setOpen(false)} />
    </>
  )
}

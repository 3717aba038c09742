import { useState } from 'react'
import { Button } from '../../components/ui/button.tsx'
import { PushDialog } from './push-dialog.tsx'

/** The preview toolbar's 'Push to Git' (docs/product/versions.md "Push to Git"). */
export function PushButton({ applicationId }: { applicationId: string }) {
  const [open, setOpen] = useState(false)
  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => setOpen(true)}>
        Push to Git
      </Button>
      <PushDialog applicationId={applicationId} open={open} onClose={() => setOpen(false)} />
    </>
  )
}

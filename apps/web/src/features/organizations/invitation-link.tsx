import { useState } from 'react'
import { Button } from '../../components/ui/button.tsx'
import { inputClasses } from '../../components/ui/text-field.tsx'

export function invitationUrl(invitationId: string): string {
  return `${window.location.origin}/invitations/${invitationId}`
}

/** The invitation link to hand over by hand: Sprout sends no mail. */
export function InvitationLink({ invitationId, email }: { invitationId: string; email: string }) {
  const [copied, setCopied] = useState(false)
  const url = invitationUrl(invitationId)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url)
      setCopied(true)
      window.setTimeout(() => setCopied(false), 2000)
    } catch {
      setCopied(false)
    }
  }
  return (
    <div className="flex items-center gap-2">
      <input
        readOnly
        value={url}
        aria-label={`Invitation link for ${email}`}
        onFocus={(event) => event.currentTarget.select()}
        className={`${inputClasses} h-8 font-mono text-xs`}
      />
      <Button variant="secondary" size="sm" onClick={copy}>
        {copied ? 'Copied' : 'Copy link'}
      </Button>
    </div>
  )
}

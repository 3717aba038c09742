import { useState } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { useLeaveOrganization } from './use-leave-organization.ts'

type LeaveOrganizationButtonProps = { organizationId: string; name: string; onLeft: () => void }

export function LeaveOrganizationButton({
  organizationId,
  name,
  onLeft,
}: LeaveOrganizationButtonProps) {
  const [confirming, setConfirming] = useState(false)
  const leave = useLeaveOrganization()

  if (!confirming) {
    return (
      <Button variant="danger" size="sm" onClick={() => setConfirming(true)}>
        Leave organization
      </Button>
    )
  }
  return (
    <div className="flex flex-col gap-3 rounded-xl border border-red-200 bg-red-50 p-4">
      <p className="text-sm text-red-700">
        Leave &ldquo;{name}&rdquo;? You will lose access to its applications until someone invites
        you again.
      </p>
      {leave.error && <Alert>{leave.error.message}</Alert>}
      <div className="flex gap-2">
        <Button variant="secondary" size="sm" onClick={() => setConfirming(false)}>
          Cancel
        </Button>
        <Button
          variant="danger"
          size="sm"
          disabled={leave.isPending}
          onClick={() => leave.mutate(organizationId, { onSuccess: onLeft })}
        >
          {leave.isPending ? 'Leaving...' : 'Leave'}
        </Button>
      </div>
    </div>
  )
}

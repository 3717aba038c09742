import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert } from '../../components/ui/alert.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { authClient, unwrapAuthResult } from '../../lib/auth-client.ts'
import { InvitationLink } from './invitation-link.tsx'
import { organizationInvitationsQueryOptions } from './organization-member-queries.ts'
import { roleLabel } from './role-label.ts'

export function PendingInvitations({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient()
  const invitations = useQuery(organizationInvitationsQueryOptions(organizationId))
  const cancel = useMutation({
    mutationFn: (invitationId: string) =>
      unwrapAuthResult(authClient.organization.cancelInvitation({ invitationId })),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: ['organization-invitations', organizationId] }),
  })

  if (invitations.isError) return <Alert>{invitations.error.message}</Alert>
  if (!invitations.data?.length) return null
  return (
    <section aria-label="Pending invitations" className="flex flex-col gap-2">
      <h3 className="text-sm font-medium text-zinc-700">Pending invitations</h3>
      <ul className="flex flex-col gap-3">
        {invitations.data.map((invitation) => (
          <li key={invitation.id} className="rounded-xl border border-zinc-200 p-3">
            <div className="mb-2 flex items-center gap-2">
              <span className="truncate text-sm text-zinc-800">{invitation.email}</span>
              <Badge>{roleLabel(invitation.role)}</Badge>
              <Button
                variant="ghost"
                size="sm"
                className="ml-auto"
                disabled={cancel.isPending}
                onClick={() => cancel.mutate(invitation.id)}
              >
                Revoke
              </Button>
            </div>
            <InvitationLink invitationId={invitation.id} email={invitation.email} />
          </li>
        ))}
      </ul>
      {cancel.error && <Alert>{cancel.error.message}</Alert>}
    </section>
  )
}

import { useQuery } from '@tanstack/react-query'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card } from '../../components/ui/card.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { InviteMemberForm } from './invite-member-form.tsx'
import { LeaveOrganizationButton } from './leave-organization-button.tsx'
import { MembersList } from './members-list.tsx'
import { organizationMembersQueryOptions } from './organization-member-queries.ts'
import { PendingInvitations } from './pending-invitations.tsx'
import { canInvite } from './role-label.ts'

type OrganizationManagePanelProps = {
  organizationId: string
  name: string
  currentUserId: string
  onClose: () => void
}

export function OrganizationManagePanel({
  organizationId,
  name,
  currentUserId,
  onClose,
}: OrganizationManagePanelProps) {
  const members = useQuery(organizationMembersQueryOptions(organizationId))
  const myRole = members.data?.find((member) => member.userId === currentUserId)?.role

  return (
    <Card className="flex flex-col gap-6 p-5" aria-label={`Manage ${name}`} role="region">
      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0">
          <h2 className="truncate text-base font-semibold text-zinc-900">{name}</h2>
          <p className="text-sm text-zinc-500">Members and invitations</p>
        </div>
        <Button variant="ghost" size="sm" onClick={onClose}>
          Close
        </Button>
      </div>

      <section className="flex flex-col gap-1">
        <h3 className="text-sm font-medium text-zinc-700">Members</h3>
        {members.isPending && <Spinner />}
        {members.isError && <Alert>{members.error.message}</Alert>}
        {members.data && <MembersList members={members.data} currentUserId={currentUserId} />}
      </section>

      {canInvite(myRole) && (
        <section className="flex flex-col gap-3">
          <h3 className="text-sm font-medium text-zinc-700">Invite a member</h3>
          <InviteMemberForm organizationId={organizationId} />
          <PendingInvitations organizationId={organizationId} />
        </section>
      )}

      <div className="border-t border-zinc-100 pt-4">
        <LeaveOrganizationButton organizationId={organizationId} name={name} onLeft={onClose} />
      </div>
    </Card>
  )
}

import { Avatar } from '../../components/ui/avatar.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import type { OrganizationMember } from './organization-member-queries.ts'
import { roleLabel } from './role-label.ts'

export function MembersList({
  members,
  currentUserId,
}: {
  members: OrganizationMember[]
  currentUserId: string
}) {
  return (
    <ul aria-label="Members" className="divide-y divide-zinc-100">
      {members.map((member) => (
        <li key={member.id} className="flex items-center gap-3 py-3">
          <Avatar name={member.user.name || member.user.email} />
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-medium text-zinc-900">
              {member.user.name || member.user.email}
              {member.userId === currentUserId && (
                <span className="ml-1 font-normal text-zinc-500">(you)</span>
              )}
            </p>
            <p className="truncate text-xs text-zinc-500">{member.user.email}</p>
          </div>
          <Badge>{roleLabel(member.role)}</Badge>
        </li>
      ))}
    </ul>
  )
}

import type { AdminUser } from '@sprout/protocol/api/admin-users.ts'
import { Badge } from '../../../components/ui/badge.tsx'
import type { UserAction } from './use-user-actions.ts'
import { UserActionsMenu } from './user-actions-menu.tsx'
import { userTexts } from './user-texts.ts'

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' })
const formatDate = (iso: string | null) =>
  iso ? dateFormat.format(new Date(iso)) : userTexts.never

type UserRowProps = {
  user: AdminUser
  mailConfigured: boolean
  busy: boolean
  onChoose: (action: UserAction, user: AdminUser) => void
}

export function UserRow({ user, mailConfigured, busy, onChoose }: UserRowProps) {
  const listed = user.isAdmin && user.role === 'user'
  return (
    <tr className="border-t border-zinc-100 align-top">
      <td className="px-3 py-2.5 font-medium text-zinc-900">
        {user.name}
        {user.banned && (
          <div className="mt-1 flex flex-col gap-0.5">
            <span className="w-fit rounded-full bg-red-50 px-2 py-0.5 text-xs font-medium text-red-700">
              {userTexts.banned}
            </span>
            {user.banReason && (
              <span className="text-xs font-normal text-zinc-500">{user.banReason}</span>
            )}
          </div>
        )}
      </td>
      <td className="px-3 py-2.5 text-zinc-600">{user.email}</td>
      <td className="px-3 py-2.5">
        <span title={listed ? userTexts.listedHint : undefined}>
          <Badge tone={user.isAdmin ? 'accent' : 'neutral'}>
            {user.isAdmin ? 'Admin' : 'User'}
          </Badge>
        </span>
      </td>
      <td className="px-3 py-2.5 text-zinc-600">{user.organizations.join(', ')}</td>
      <td className="px-3 py-2.5 whitespace-nowrap text-zinc-500">{formatDate(user.createdAt)}</td>
      <td className="px-3 py-2.5 whitespace-nowrap text-zinc-500">{formatDate(user.lastSeenAt)}</td>
      <td className="px-3 py-2.5 text-right">
        <UserActionsMenu
          user={user}
          mailConfigured={mailConfigured}
          disabled={busy}
          onChoose={onChoose}
        />
      </td>
    </tr>
  )
}

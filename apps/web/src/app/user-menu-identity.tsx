import { Avatar } from '../components/ui/avatar.tsx'
import type { SessionUser } from '../lib/session-query.ts'

/** The user menu's heading: who is signed in. */
export function UserMenuIdentity({ user }: { user: SessionUser }) {
  return (
    <div className="flex items-center gap-3 px-2.5 py-2">
      <Avatar name={user.name || user.email} className="size-9" />
      <div className="min-w-0">
        {user.name && <p className="truncate text-sm font-medium text-zinc-900">{user.name}</p>}
        <p data-testid="user-email" className="truncate text-xs text-zinc-500">
          {user.email}
        </p>
      </div>
    </div>
  )
}

import { Avatar } from '../components/ui/avatar.tsx'
import { ChevronDownIcon } from '../components/ui/icons.tsx'
import { useSignOut } from '../features/auth/use-sign-out.ts'
import {
  type OrganizationTarget,
  useSwitchOrganization,
} from '../features/organizations/use-switch-organization.ts'
import type { Session } from '../lib/session-query.ts'
import { useOrganizationChoices } from './use-organization-choices.ts'
import { useUserMenu } from './use-user-menu.ts'
import { UserMenu } from './user-menu.tsx'

/** The signed-in user's menu: who they are, where they work, switching, and signing out. */
export function UserButton({ session }: { session: Session }) {
  const { user } = session
  const menu = useUserMenu()
  const choices = useOrganizationChoices(user.id)
  const switchOrganization = useSwitchOrganization()
  const signOut = useSignOut()

  const choose = (target: OrganizationTarget) => {
    menu.close()
    switchOrganization.mutate({ target })
  }

  return (
    <div ref={menu.rootRef} className="relative">
      <button
        ref={menu.buttonRef}
        type="button"
        aria-haspopup="menu"
        aria-expanded={menu.open}
        onClick={menu.toggle}
        className="flex items-center gap-2 rounded-full py-1 pr-2 pl-1 text-sm text-zinc-700 transition-colors hover:bg-zinc-100"
      >
        <Avatar name={user.name || user.email} />
        {/* Named by its text: the organization it shows is part of its name (WCAG "label in name"). */}
        <span className="sr-only">User menu{choices.currentName ? ', ' : ''}</span>
        {choices.currentName && (
          <span
            data-testid="current-organization"
            className="hidden max-w-40 truncate font-medium sm:inline"
          >
            {choices.currentName}
          </span>
        )}
        <ChevronDownIcon className="text-zinc-400" />
      </button>

      {menu.open && (
        <UserMenu
          user={user}
          menuRef={menu.menuRef}
          onKeyDown={menu.onMenuKeyDown}
          choices={choices}
          onChoose={choose}
          onClose={() => menu.close()}
          isSigningOut={signOut.isPending}
          onSignOut={() => {
            menu.close()
            signOut.mutate()
          }}
        />
      )}
    </div>
  )
}

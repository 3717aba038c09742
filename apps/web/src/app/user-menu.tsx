import type { KeyboardEvent, RefObject } from 'react'
import type { OrganizationTarget } from '../features/organizations/use-switch-organization.ts'
import type { SessionUser } from '../lib/session-query.ts'
import { OrganizationMenuItems } from './organization-menu-items.tsx'
import { PlaceMenuItems } from './place-menu-items.tsx'
import type { OrganizationChoices } from './use-organization-choices.ts'
import { UserMenuIdentity } from './user-menu-identity.tsx'
import { menuItemClasses } from './user-menu-item-classes.ts'

type UserMenuProps = {
  user: SessionUser
  menuRef: RefObject<HTMLDivElement | null>
  onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => void
  choices: OrganizationChoices
  onChoose: (target: OrganizationTarget) => void
  onClose: () => void
  isSigningOut: boolean
  onSignOut: () => void
}

/**
 * The user menu's popup: who is signed in, the organizations to switch to, the places to go and
 * signing out.
 */
export function UserMenu({
  user,
  menuRef,
  onKeyDown,
  choices,
  onChoose,
  onClose,
  isSigningOut,
  onSignOut,
}: UserMenuProps) {
  return (
    <div
      ref={menuRef}
      role="menu"
      aria-label="User menu"
      tabIndex={-1}
      onKeyDown={onKeyDown}
      className="absolute right-0 z-40 mt-2 w-72 max-w-[calc(100vw-2rem)] rounded-2xl border border-zinc-200 bg-white p-1.5 shadow-xl"
    >
      <UserMenuIdentity user={user} />
      <div className="my-1 border-t border-zinc-100" />
      <OrganizationMenuItems choices={choices} onChoose={onChoose} onManage={onClose} />
      <div className="my-1 border-t border-zinc-100" />
      <PlaceMenuItems onNavigate={onClose} />
      <div className="my-1 border-t border-zinc-100" />
      <button
        type="button"
        role="menuitem"
        className={menuItemClasses}
        disabled={isSigningOut}
        onClick={() => onSignOut()}
      >
        Sign out
      </button>
    </div>
  )
}

import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { type KeyboardEvent, useCallback, useRef, useState } from 'react'
import { Avatar } from '../components/ui/avatar.tsx'
import { ChevronDownIcon } from '../components/ui/icons.tsx'
import { useSignOut } from '../features/auth/use-sign-out.ts'
import { organizationListQueryOptions } from '../features/organizations/organization-queries.ts'
import { useOrganizationSelection } from '../features/organizations/use-organization-selection.ts'
import {
  type OrganizationTarget,
  useSwitchOrganization,
} from '../features/organizations/use-switch-organization.ts'
import { useDismiss } from '../hooks/use-dismiss.ts'
import { classNames } from '../lib/class-names.ts'
import type { Session } from '../lib/session-query.ts'

const menuItemClasses =
  'flex w-full items-center gap-2 rounded-lg px-2.5 py-2 text-left text-sm text-zinc-700 outline-none hover:bg-zinc-100 focus:bg-zinc-100'

function CheckMark({ visible }: { visible: boolean }) {
  return (
    <svg
      viewBox="0 0 20 20"
      aria-hidden="true"
      className={classNames('size-4 shrink-0 text-accent-600', !visible && 'invisible')}
    >
      <path
        d="m5 10 3 3 7-7"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  )
}

/** The signed-in user's menu: who they are, where they work, switching, and signing out. */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: one menu: its open state, keyboard handling and markup read best together
export function UserButton({ session }: { session: Session }) {
  const { user } = session
  const rootRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const menuRef = useRef<HTMLDivElement>(null)
  const [open, setOpen] = useState(false)
  const selection = useOrganizationSelection()
  const organizations = useQuery(organizationListQueryOptions(user.id))
  const switchOrganization = useSwitchOrganization()
  const signOut = useSignOut()

  const close = useCallback((returnFocus = false) => {
    setOpen(false)
    if (returnFocus) buttonRef.current?.focus()
  }, [])
  const onDismiss = useCallback(
    (reason: 'outside' | 'escape') => close(reason === 'escape'),
    [close],
  )
  useDismiss(rootRef, open, onDismiss)

  const teams = (organizations.data ?? [])
    .filter((organization) => organization.isPersonal !== true)
    .sort((first, second) => first.name.localeCompare(second.name))
  const personalOrganizationId = organizations.data?.find((item) => item.isPersonal === true)?.id
  const activeId = selection?.kind === 'organization' ? selection.externalOrganizationId : undefined
  const isPersonalCurrent =
    selection?.kind === 'personal' ||
    (activeId !== undefined && activeId === personalOrganizationId)
  const currentName = isPersonalCurrent
    ? 'Personal'
    : teams.find((team) => team.id === activeId)?.name

  const choose = (target: OrganizationTarget) => {
    close()
    switchOrganization.mutate({ target })
  }

  const focusItem = (direction: 1 | -1 | 'first' | 'last') => {
    const items = Array.from(
      menuRef.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? [],
    )
    if (items.length === 0) return
    const index = items.indexOf(document.activeElement as HTMLElement)
    let next: number
    if (direction === 'first') next = 0
    else if (direction === 'last') next = items.length - 1
    else next = (index + direction + items.length) % items.length
    items[next]?.focus()
  }

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, 1 | -1 | 'first' | 'last'> = {
      ArrowDown: 1,
      ArrowUp: -1,
      Home: 'first',
      End: 'last',
    }
    const move = moves[event.key]
    if (move !== undefined) {
      event.preventDefault()
      focusItem(move)
    } else if (event.key === 'Tab') {
      close()
    }
  }

  const toggle = () => {
    if (open) return close()
    setOpen(true)
    requestAnimationFrame(() => focusItem('first'))
  }

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-label="User menu"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={toggle}
        className="flex items-center gap-2 rounded-full py-1 pr-2 pl-1 text-sm text-zinc-700 transition-colors hover:bg-zinc-100"
      >
        <Avatar name={user.name || user.email} />
        {currentName && (
          <span
            data-testid="current-organization"
            className="hidden max-w-40 truncate font-medium sm:inline"
          >
            {currentName}
          </span>
        )}
        <ChevronDownIcon className="text-zinc-400" />
      </button>

      {open && (
        <div
          ref={menuRef}
          role="menu"
          aria-label="User menu"
          tabIndex={-1}
          onKeyDown={onMenuKeyDown}
          className="absolute right-0 z-40 mt-2 w-72 max-w-[calc(100vw-2rem)] rounded-2xl border border-zinc-200 bg-white p-1.5 shadow-xl"
        >
          <div className="flex items-center gap-3 px-2.5 py-2">
            <Avatar name={user.name || user.email} className="size-9" />
            <div className="min-w-0">
              {user.name && (
                <p className="truncate text-sm font-medium text-zinc-900">{user.name}</p>
              )}
              <p data-testid="user-email" className="truncate text-xs text-zinc-500">
                {user.email}
              </p>
            </div>
          </div>
          <div className="my-1 border-t border-zinc-100" />
          <div>
            <p className="px-2.5 pt-1.5 pb-1 text-xs font-medium text-zinc-400">Organizations</p>
            <button
              type="button"
              role="menuitemradio"
              aria-checked={isPersonalCurrent}
              className={menuItemClasses}
              onClick={() => choose({ kind: 'personal' })}
            >
              <CheckMark visible={isPersonalCurrent} />
              Personal
            </button>
            {teams.map((team) => (
              <button
                key={team.id}
                type="button"
                role="menuitemradio"
                aria-checked={team.id === activeId}
                className={menuItemClasses}
                onClick={() => choose({ kind: 'organization', id: team.id })}
              >
                <CheckMark visible={team.id === activeId} />
                <span className="truncate">{team.name}</span>
              </button>
            ))}
            <Link
              to="/organizations"
              role="menuitem"
              className={classNames(menuItemClasses, 'text-zinc-500')}
              onClick={() => close()}
            >
              <svg viewBox="0 0 20 20" aria-hidden="true" className="size-4 shrink-0">
                <path
                  d="M4 16v-1a3 3 0 0 1 3-3h2a3 3 0 0 1 3 3v1M8 9a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5Zm6 3h1a2 2 0 0 1 2 2v1m-3-6.5a2 2 0 1 0 0-4"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="1.5"
                  strokeLinecap="round"
                />
              </svg>
              Manage organizations
            </Link>
          </div>
          <div className="my-1 border-t border-zinc-100" />
          <button
            type="button"
            role="menuitem"
            className={menuItemClasses}
            disabled={signOut.isPending}
            onClick={() => {
              close()
              signOut.mutate()
            }}
          >
            Sign out
          </button>
        </div>
      )}
    </div>
  )
}

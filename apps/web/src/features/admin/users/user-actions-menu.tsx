import type { AdminUser } from '@sprout/protocol/api/admin-users.ts'
import { useCallback, useRef, useState } from 'react'
import { useDismiss } from '../../../hooks/use-dismiss.ts'
import type { UserAction } from './use-user-actions.ts'
import { actionsLabel, userTexts } from './user-texts.ts'

type UserActionsMenuProps = {
  user: AdminUser
  mailConfigured: boolean
  disabled: boolean
  onChoose: (action: UserAction, user: AdminUser) => void
}

const itemClasses =
  'flex w-full rounded-lg px-3 py-2 text-left text-sm text-zinc-700 hover:bg-zinc-100 disabled:cursor-not-allowed disabled:text-zinc-300 disabled:hover:bg-transparent'

/** A row's '⋯' button and its menu of actions; Escape or a click outside closes it. */
export function UserActionsMenu({
  user,
  mailConfigured,
  disabled,
  onChoose,
}: UserActionsMenuProps) {
  const [open, setOpen] = useState(false)
  const containerRef = useRef<HTMLDivElement>(null)
  const close = useCallback(() => setOpen(false), [])
  useDismiss(containerRef, open, close)
  const items: { action: UserAction; label: string; hint?: string; danger?: boolean }[] = [
    user.role === 'admin'
      ? { action: 'remove-admin', label: userTexts.removeAdmin }
      : { action: 'make-admin', label: userTexts.makeAdmin },
    user.banned
      ? { action: 'unban', label: userTexts.unban }
      : { action: 'ban', label: userTexts.ban, danger: true },
    { action: 'reset-link', label: userTexts.copyResetLink },
    {
      action: 'reset-mail',
      label: userTexts.sendResetMail,
      hint: mailConfigured ? undefined : userTexts.mailNotConfiguredHint,
    },
    { action: 'sign-out', label: userTexts.signOutEverywhere },
  ]
  return (
    <div ref={containerRef} className="relative inline-block">
      <button
        type="button"
        aria-label={actionsLabel(user)}
        aria-haspopup="menu"
        aria-expanded={open}
        disabled={disabled}
        onClick={() => setOpen((value) => !value)}
        className="inline-flex size-8 items-center justify-center rounded-lg text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 disabled:text-zinc-300"
      >
        <span aria-hidden="true">⋯</span>
      </button>
      {open && (
        <div
          role="menu"
          aria-label={actionsLabel(user)}
          className="absolute right-0 z-30 mt-1 w-64 rounded-xl border border-zinc-200 bg-white p-1 shadow-lg"
        >
          {items.map((item) => (
            <button
              key={item.action}
              type="button"
              role="menuitem"
              disabled={item.hint !== undefined}
              title={item.hint}
              className={`${itemClasses} ${item.danger ? 'text-red-600' : ''}`}
              onClick={() => {
                setOpen(false)
                onChoose(item.action, user)
              }}
            >
              <span className="flex flex-col">
                {item.label}
                {item.hint && <span className="text-xs text-zinc-400">{item.hint}</span>}
              </span>
            </button>
          ))}
        </div>
      )}
    </div>
  )
}

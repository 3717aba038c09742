import { useCallback, useRef, useState } from 'react'
import { useDismiss } from '../hooks/use-dismiss.ts'
import { type ListMove, listIndexAfter, useListKeyboard } from '../hooks/use-list-keyboard.ts'

/** The user menu's open state and its keyboard: the focus moves between the menu's items. */
export function useUserMenu() {
  const rootRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const menuRef = useRef<HTMLDivElement>(null)
  const [open, setOpen] = useState(false)

  const close = useCallback((returnFocus = false) => {
    setOpen(false)
    if (returnFocus) buttonRef.current?.focus()
  }, [])
  const onDismiss = useCallback(
    (reason: 'outside' | 'escape') => close(reason === 'escape'),
    [close],
  )
  useDismiss(rootRef, open, onDismiss)

  const focusItem = (move: ListMove) => {
    const items = Array.from(
      menuRef.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? [],
    )
    if (items.length === 0) return
    const index = items.indexOf(document.activeElement as HTMLElement)
    items[listIndexAfter(index, items.length, move)]?.focus()
  }
  const onMenuKeyDown = useListKeyboard({ onMove: focusItem, onTab: () => close() })

  const toggle = () => {
    if (open) return close()
    setOpen(true)
    requestAnimationFrame(() => focusItem('first'))
  }

  return { rootRef, buttonRef, menuRef, open, close, toggle, onMenuKeyDown }
}

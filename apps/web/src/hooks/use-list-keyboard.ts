import type { KeyboardEvent } from 'react'

/** A step through a menu's items or a listbox's options: one either way, or to an end. */
export type ListMove = 1 | -1 | 'first' | 'last'

const movesByKey = new Map<string, ListMove>([
  ['ArrowDown', 1],
  ['ArrowUp', -1],
  ['Home', 'first'],
  ['End', 'last'],
])

/**
 * Where `move` lands among `length` items from `index` (-1: none has the focus), wrapping around
 * at the ends; from none, a step down lands on the first and a step up on the last.
 */
export function listIndexAfter(index: number, length: number, move: ListMove): number {
  if (move === 'first' || (index < 0 && move === 1)) return 0
  if (move === 'last' || (index < 0 && move === -1)) return length - 1
  return (index + move + length) % length
}

type ListKeyboardOptions = {
  onMove: (move: ListMove) => void
  /** Tab leaves the list; the browser still moves the focus on. */
  onTab: () => void
  /** Enter and Space, for a listbox whose options never hold the focus themselves. */
  onChoose?: () => void
}

/**
 * The keys menus and listboxes share: the arrows step, Home and End jump to the ends, Tab leaves.
 * Returns the list's keydown handler.
 */
export function useListKeyboard({ onMove, onTab, onChoose }: ListKeyboardOptions) {
  return (event: KeyboardEvent<HTMLElement>) => {
    const move = movesByKey.get(event.key)
    if (move !== undefined) {
      event.preventDefault()
      onMove(move)
    } else if (event.key === 'Tab') {
      onTab()
    } else if (onChoose && (event.key === 'Enter' || event.key === ' ')) {
      event.preventDefault()
      onChoose()
    }
  }
}

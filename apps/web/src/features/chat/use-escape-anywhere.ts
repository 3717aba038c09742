import { useEffect, useRef } from 'react'

// Elements that close on Escape themselves: the key is theirs.
const ownsEscape = '[role="listbox"],[role="dialog"],[role="menu"],[aria-haspopup]'

/**
 * Escape anywhere calls `onEscape` (docs/product/builder.md "Chat input"), also when focus is on
 * the page after a click on the transcript or preview. Not while a modal is open or a popup or the
 * chat input handled the key; the preview iframe keeps its own keys.
 */
export function useEscapeAnywhere(onEscape: () => void) {
  const latest = useRef(onEscape)
  latest.current = onEscape
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return
      if (event.target instanceof Element && event.target.closest(ownsEscape)) return
      if (document.querySelector('[aria-modal="true"]')) return
      latest.current()
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [])
}

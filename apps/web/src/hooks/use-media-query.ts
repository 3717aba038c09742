import { useCallback, useSyncExternalStore } from 'react'

/** Phones: the width at which the builder shows its chat and preview as tabs. */
export const PHONE_MEDIA_QUERY = '(width <= 640px)'

/** Whether the window matches a CSS media query, following it as the window changes. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window.matchMedia !== 'function') return () => {}
      const list = window.matchMedia(query)
      list.addEventListener('change', onChange)
      return () => list.removeEventListener('change', onChange)
    },
    [query],
  )
  return useSyncExternalStore(
    subscribe,
    () => typeof window.matchMedia === 'function' && window.matchMedia(query).matches,
    () => false,
  )
}

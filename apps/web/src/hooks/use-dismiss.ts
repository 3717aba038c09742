import { type RefObject, useEffect } from 'react'

/** While `active`, a pointer press outside `containerRef` or the Escape key calls `onDismiss`. */
export function useDismiss(
  containerRef: RefObject<HTMLElement | null>,
  active: boolean,
  onDismiss: (reason: 'outside' | 'escape') => void,
): void {
  useEffect(() => {
    if (!active) return
    const onPointerDown = (event: PointerEvent) => {
      const container = containerRef.current
      if (container && event.target instanceof Node && !container.contains(event.target)) {
        onDismiss('outside')
      }
    }
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onDismiss('escape')
    }
    document.addEventListener('pointerdown', onPointerDown)
    document.addEventListener('keydown', onKeyDown)
    return () => {
      document.removeEventListener('pointerdown', onPointerDown)
      document.removeEventListener('keydown', onKeyDown)
    }
  }, [containerRef, active, onDismiss])
}

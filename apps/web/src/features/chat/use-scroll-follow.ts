import { SCROLL_FOLLOW_THRESHOLD_PX } from '@sprout/protocol/constants.ts'
import { type RefObject, useCallback, useEffect, useRef } from 'react'

/**
 * Keeps a scroll container at its bottom as its content grows, while the user is within 50 px of
 * the bottom; scrolling up stops following until they come back down.
 */
export function useScrollFollow(
  containerRef: RefObject<HTMLElement | null>,
  contentRef: RefObject<HTMLElement | null>,
): { scrollToBottom: () => void } {
  const following = useRef(true)

  const scrollToBottom = useCallback(() => {
    following.current = true
    const container = containerRef.current
    if (container) container.scrollTop = container.scrollHeight
  }, [containerRef])

  useEffect(() => {
    const container = containerRef.current
    const content = contentRef.current
    if (!container || !content) return
    const onScroll = () => {
      const distance = container.scrollHeight - container.scrollTop - container.clientHeight
      following.current = distance <= SCROLL_FOLLOW_THRESHOLD_PX
    }
    const onResize = () => {
      if (following.current) container.scrollTop = container.scrollHeight
    }
    container.addEventListener('scroll', onScroll, { passive: true })
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(onResize)
    observer?.observe(content)
    onResize()
    return () => {
      container.removeEventListener('scroll', onScroll)
      observer?.disconnect()
    }
  }, [containerRef, contentRef])

  return { scrollToBottom }
}

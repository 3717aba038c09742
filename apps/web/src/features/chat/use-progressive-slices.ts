import { useEffect, useState } from 'react'

/** Slices rendered at once when a conversation opens: the newest, which fill the view. */
const NEWEST_SLICES = 2

/**
 * The first transcript slice to render. When many arrive at once (an opened history) only the
 * newest render in that frame and the older follow one per task, so a long history never freezes
 * the page; a streamed slice renders at once.
 */
export function useProgressiveSlices(sliceCount: number): number {
  const [progress, setProgress] = useState({ sliceCount: 0, renderFrom: 0 })
  let renderFrom = progress.renderFrom
  if (sliceCount !== progress.sliceCount) {
    if (sliceCount < progress.sliceCount) renderFrom = 0
    else if (sliceCount - progress.sliceCount > NEWEST_SLICES)
      renderFrom = sliceCount - NEWEST_SLICES
    // Adjusting state while rendering: React re-renders at once, before anything is committed.
    setProgress({ sliceCount, renderFrom })
  }

  useEffect(() => {
    if (renderFrom === 0) return
    const handle = setTimeout(() => {
      setProgress((current) => ({ ...current, renderFrom: Math.max(0, current.renderFrom - 1) }))
    }, 0)
    return () => clearTimeout(handle)
  }, [renderFrom])

  return renderFrom
}

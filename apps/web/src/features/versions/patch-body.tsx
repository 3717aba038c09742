import type { DiffFile } from '@sprout/protocol/api/versions.ts'
import { useEffect, useRef, useState } from 'react'
import { Spinner } from '../../components/ui/spinner.tsx'
import type { DiffLayout } from './render-patch.ts'

/** About one diff line's height: the room a file takes before it is drawn. */
const LINE_HEIGHT_PX = 18
/** Files this far below the visible part are drawn ahead of the scroll. */
const DRAW_AHEAD = '800px'

type PatchBodyProps = {
  file: DiffFile
  layout: DiffLayout
  /** Drawn at once (the first files); the others when they come near the visible part. */
  eager: boolean
}

/**
 * One file's hunks drawn by diff2html (loaded on first use), its own file header hidden. A run's
 * diff of 50 files would take seconds to draw at once (docs/performance.md "Versions: the diff in
 * the browser"), so files out of sight wait until they are scrolled near.
 */
export function PatchBody({ file, layout, eager }: PatchBodyProps) {
  const targetRef = useRef<HTMLDivElement>(null)
  const [near, setNear] = useState(eager)
  const [drawn, setDrawn] = useState(false)
  useEffect(() => {
    const target = targetRef.current
    if (near || !target) return
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true)
      },
      { rootMargin: `${DRAW_AHEAD} 0px` },
    )
    observer.observe(target)
    return () => observer.disconnect()
  }, [near])
  useEffect(() => {
    if (!near) return
    let cancelled = false
    void import('./render-patch.ts').then(({ renderPatch }) => {
      const target = targetRef.current
      if (cancelled || !target) return
      renderPatch(target, file, layout)
      setDrawn(true)
    })
    return () => {
      cancelled = true
    }
  }, [file, layout, near])
  return (
    <>
      {!drawn && (
        <p className="flex items-center gap-2 px-3 py-2 text-sm text-zinc-500">
          <Spinner className="size-4" />
          Loading diff...
        </p>
      )}
      <div
        ref={targetRef}
        data-testid="patch"
        style={drawn ? undefined : { minHeight: Math.min(file.lines, 400) * LINE_HEIGHT_PX }}
        className="sprout-diff text-xs"
      />
    </>
  )
}

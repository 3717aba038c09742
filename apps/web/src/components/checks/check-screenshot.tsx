import type { CheckProblem } from '@sprout/protocol/api/checks.ts'
import { imageUrl } from '@sprout/protocol/api/images.ts'
import { useState } from 'react'
import { ImageViewerDialog } from '../ui/image-viewer-dialog.tsx'

type Screenshot = NonNullable<CheckProblem['screenshot']>

/**
 * A failing acceptance test's page at the failure (docs/product/checks.md "Acceptance tests"):
 * a thumbnail under the problem that opens it whole; Escape or Close puts it away.
 */
export function CheckScreenshot({ screenshot, test }: { screenshot: Screenshot; test: string }) {
  const [open, setOpen] = useState(false)
  const description = `The page when “${test}” failed, ${screenshot.width} × ${screenshot.height} pixels`
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        title="Open the screenshot"
        className="mt-1 ml-5 block overflow-hidden rounded-md border border-zinc-200 bg-zinc-50 hover:border-zinc-400 focus-visible:outline-2 focus-visible:outline-accent-600"
      >
        <img
          src={imageUrl(screenshot.id)}
          alt={description}
          loading="lazy"
          className="h-20 w-32 object-cover object-top"
        />
      </button>
      <ImageViewerDialog
        image={open ? screenshot : undefined}
        title="Screenshot at the failure"
        description={description}
        onClose={() => setOpen(false)}
      />
    </>
  )
}

import type { CheckProblem } from '@sprout/protocol/api/checks.ts'
import { ZoomableImage } from '../ui/zoomable-image.tsx'

type Screenshot = NonNullable<CheckProblem['screenshot']>

/**
 * A failing acceptance test's page at the failure (docs/product/checks.md "Acceptance tests"):
 * a thumbnail under the problem that opens it whole.
 */
export function CheckScreenshot({ screenshot, test }: { screenshot: Screenshot; test: string }) {
  return (
    <ZoomableImage
      image={screenshot}
      description={`The page when “${test}” failed, ${screenshot.width} × ${screenshot.height} pixels`}
      viewerTitle="Screenshot at the failure"
      className="mt-1 ml-5 rounded-md"
      imageClassName="h-20 w-32 object-cover object-top"
    />
  )
}

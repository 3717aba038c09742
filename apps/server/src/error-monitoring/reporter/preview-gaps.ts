/**
 * docs/product/error-monitoring.md "Reporters" (Sprout's own gaps): when the preview host answers for an
 * app's dev server itself (502: it did not answer; 503: it is not running), a page of the preview
 * fails through no fault of the app — a module that does not load, a fetch that fails. What such a
 * page reports soon after is Sprout's failure, not the app's, and is not recorded.
 */

/** How long after the preview host's own failure a page served before it is not heard. */
export const PREVIEW_GAP_MS = 30_000
const keptApplications = 10_000

export type PreviewGaps = ReturnType<typeof createPreviewGaps>

export function createPreviewGaps(now: () => number = Date.now) {
  /** The time of each application's latest answer of Sprout's own, in insertion order. */
  const latest = new Map<string, number>()
  return {
    /** The preview host answered a request of the application's preview itself (502 or 503). */
    mark(applicationId: string) {
      latest.delete(applicationId)
      latest.set(applicationId, now())
      if (latest.size > keptApplications) latest.delete(latest.keys().next().value as string)
    },
    /**
     * Whether a report from a page served at `servedAt` (the reporter's tag says when) comes from
     * such a gap: the page was served before Sprout's failure, which was moments ago.
     */
    covers(applicationId: string, servedAt: number | undefined): boolean {
      const failedAt = latest.get(applicationId)
      if (failedAt === undefined || servedAt === undefined) return false
      return servedAt <= failedAt && now() - failedAt <= PREVIEW_GAP_MS
    },
  }
}

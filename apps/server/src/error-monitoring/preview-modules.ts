import { requestDevServer } from '@sprout/devbox/dev-server-request.ts'
import type { DevServerTarget } from '@sprout/devbox/devbox-driver.ts'
import type { PreviewModuleReader } from './symbolicate.ts'

/** A module larger than this is left unmapped: the dev server is the app's, and may answer anything. */
const maxModuleBytes = 4 * 1024 * 1024
/** Ingest waits for the map; a preview that is asleep or stuck is not waited for. */
const moduleTimeoutMs = 1000

/**
 * Reads a module of an app's running preview from its dev server (never wakes or starts one), for
 * the maps Vite appends to each (docs/product/error-monitoring.md "Reporters").
 */
export function createPreviewModuleReader(
  devServerTarget: (applicationId: string) => DevServerTarget | undefined,
): PreviewModuleReader {
  return async (applicationId, pathAndQuery) => {
    const target = devServerTarget(applicationId)
    if (!target) return undefined
    const answer = await requestDevServer(target, pathAndQuery, {
      timeoutMs: moduleTimeoutMs,
      maxBytes: maxModuleBytes,
    })
    return answer.status === 200 ? answer.body : undefined
  }
}

import { queueApplicationCommit } from '../versions/service.ts'

/**
 * A run's checkpoint joins its application's commit queue (versions/, shared
 * with restores and hand edits); a failed one is logged and the run ends as it would have.
 */
export function createCheckpointQueue() {
  return (applicationId: string, commit: () => Promise<unknown>): Promise<unknown> =>
    queueApplicationCommit(applicationId, commit).catch((error: unknown) => {
      console.error('[runs] checkpoint failed:', error)
    })
}

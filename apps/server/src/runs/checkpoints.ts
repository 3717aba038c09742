/**
 * Conversations of one application share its dev box: their commits must not overlap (git's
 * lock), so each application's checkpoints run one after another.
 */
export function createCheckpointQueue() {
  const checkpoints = new Map<string, Promise<unknown>>()
  return (applicationId: string, commit: () => Promise<unknown>): Promise<unknown> => {
    const previous = checkpoints.get(applicationId) ?? Promise.resolve()
    const next = previous.then(commit).catch((error: unknown) => {
      console.error('[runs] checkpoint failed:', error)
    })
    checkpoints.set(applicationId, next)
    void next.finally(() => {
      if (checkpoints.get(applicationId) === next) checkpoints.delete(applicationId)
    })
    return next
  }
}

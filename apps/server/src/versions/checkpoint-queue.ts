const queues = new Map<string, Promise<unknown>>()

/**
 * Conversations of one application share its dev box, and restores and hand edits commit in it
 * too: their commits must not overlap (git's lock, and version numbers), so each application's
 * commits run one after another, in this process. The caller gets the work's result or error.
 */
export function queueCommit<T>(applicationId: string, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(applicationId) ?? Promise.resolve()
  const next = previous.then(work)
  const settled = next.catch(() => undefined)
  queues.set(applicationId, settled)
  void settled.finally(() => {
    if (queues.get(applicationId) === settled) queues.delete(applicationId)
  })
  return next
}

/** The session a stream was opened with, and the organization whose data it streams. */
export type StreamOwner = { userId: string; sessionId: string; organizationId?: string }

/** Longer than a listen token lives (GET /api/auth/token: 5 minutes). */
const endedMemoryMs = 6 * 60_000

/**
 * The streams open in this process, by the session that opened them, each with the organization
 * it was opened in; user-streams.ts ends them on its own and other processes' notices.
 */
export function createHeldStreams() {
  const streams = new Map<
    string,
    { userId: string; closers: Map<() => void, string | undefined> }
  >()
  // Sessions ended lately, kept as long as a listen token lives: a stream that registers just
  // after its session ended (its check passed before) is ended at once.
  const ended = new Map<string, number>()
  const endLocal = (sessionIds: readonly string[]) => {
    const now = Date.now()
    for (const [id, at] of ended) if (now - at > endedMemoryMs) ended.delete(id)
    for (const sessionId of sessionIds) {
      ended.set(sessionId, now)
      const held = streams.get(sessionId)
      streams.delete(sessionId)
      for (const close of held?.closers.keys() ?? []) close()
    }
  }

  /** Ends the streams a user opened in the organization. */
  const endMembershipLocal = (organizationId: string, userId: string) => {
    for (const held of streams.values()) {
      if (held.userId !== userId) continue
      for (const [close, openedIn] of held.closers) {
        if (openedIn !== organizationId) continue
        held.closers.delete(close)
        close()
      }
    }
  }

  /** Registers an open stream and how to end it; returns its release, for when it ends. */
  const hold = (owner: StreamOwner, close: () => void): (() => void) => {
    if (ended.has(owner.sessionId)) {
      close()
      return () => {}
    }
    const held = streams.get(owner.sessionId) ?? { userId: owner.userId, closers: new Map() }
    held.closers.set(close, owner.organizationId)
    streams.set(owner.sessionId, held)
    return () => {
      held.closers.delete(close)
      if (held.closers.size === 0 && streams.get(owner.sessionId) === held) {
        streams.delete(owner.sessionId)
      }
    }
  }

  return { streams, ended, hold, endLocal, endMembershipLocal }
}

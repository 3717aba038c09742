/**
 * When each application's dev server was last used, and what holds it in use
 * (docs/architecture/devbox.md "Idle dev servers"): a preview request or an HMR message touches
 * it; a running agent run or an open builder holds it until released.
 */
export function createUsageTracker(options: { idleMs: number; now?: () => number }) {
  const now = options.now ?? Date.now
  const lastUse = new Map<string, number>()
  const holds = new Map<string, number>()
  // Uses not yet written to the box's row (record-last-use.ts): one entry per application.
  const unrecorded = new Map<string, number>()

  const touch = (applicationId: string) => {
    const time = now()
    lastUse.set(applicationId, time)
    unrecorded.set(applicationId, time)
  }

  return {
    touch,

    /** Keeps the dev server in use until the returned function is called (once is enough). */
    hold: (applicationId: string) => {
      holds.set(applicationId, (holds.get(applicationId) ?? 0) + 1)
      touch(applicationId)
      let released = false
      return () => {
        if (released) return
        released = true
        const left = (holds.get(applicationId) ?? 1) - 1
        if (left > 0) holds.set(applicationId, left)
        else holds.delete(applicationId)
        touch(applicationId)
      }
    },

    isHeld: (applicationId: string) => holds.has(applicationId),

    /** The given applications nobody holds and nothing touched for the idle time. */
    idle: (applicationIds: Iterable<string>) => {
      const idle: string[] = []
      const current = now()
      for (const applicationId of applicationIds) {
        if (holds.has(applicationId)) continue
        const used = lastUse.get(applicationId)
        // Never seen: counts as used now, so a box is never stopped before its first idle time.
        if (used === undefined) touch(applicationId)
        else if (current - used >= options.idleMs) idle.push(applicationId)
      }
      return idle
    },

    /**
     * How long ago each application was last used (ms), for the uses since the last call, a held
     * application counting as used now; then forgets them until the next use.
     */
    takeUnrecorded: () => {
      const current = now()
      const ages = new Map<string, number>()
      for (const [applicationId, time] of unrecorded) ages.set(applicationId, current - time)
      for (const applicationId of holds.keys()) ages.set(applicationId, 0)
      unrecorded.clear()
      return ages
    },

    forget: (applicationId: string) => {
      lastUse.delete(applicationId)
      holds.delete(applicationId)
      unrecorded.delete(applicationId)
    },
  }
}

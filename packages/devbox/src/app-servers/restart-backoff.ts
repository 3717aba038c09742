const baseDelayMs = 500
const maxDelayMs = 10_000
/** A server that ran this long before dying is restarted quickly again. */
const stableRunMs = 30_000

/**
 * The delay before restarting a crashed server: 0.5 s, doubling up to 10 s while it keeps
 * crashing soon after starting, back to 0.5 s once it has run for 30 s (as dev servers do,
 * docs/architecture/devbox.md).
 */
export function createRestartBackoff(now: () => number) {
  let consecutiveCrashes = 0
  let startedAt = 0
  return {
    started: () => {
      startedAt = now()
    },
    nextDelay: () => {
      if (startedAt && now() - startedAt > stableRunMs) consecutiveCrashes = 0
      // A failed restart counts as a crash right after a start.
      startedAt = 0
      const waitMs = Math.min(baseDelayMs * 2 ** consecutiveCrashes, maxDelayMs)
      consecutiveCrashes += 1
      return waitMs
    },
  }
}

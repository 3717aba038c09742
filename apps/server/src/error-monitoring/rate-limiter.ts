/**
 * Events per application per window (ERRORS_RATE_LIMIT), counted in this process: a fixed
 * window, one counter per application, so a flood costs a map lookup per envelope.
 */
export function createIngestRateLimiter(limit: { max: number; windowSeconds: number }) {
  const windows = new Map<string, { start: number; count: number }>()
  const windowMs = limit.windowSeconds * 1000
  const current = (applicationId: string, now: number) => {
    let window = windows.get(applicationId)
    if (!window || now - window.start >= windowMs) {
      if (windows.size > 10_000) windows.clear()
      window = { start: now, count: 0 }
      windows.set(applicationId, window)
    }
    return window
  }
  return {
    /** Seconds until the application may send again, or 0 when it may now. */
    retryAfter: (applicationId: string, now = Date.now()): number => {
      const window = current(applicationId, now)
      if (window.count < limit.max) return 0
      return Math.max(1, Math.ceil((window.start + windowMs - now) / 1000))
    },
    count: (applicationId: string, events: number, now = Date.now()) => {
      current(applicationId, now).count += events
    },
  }
}

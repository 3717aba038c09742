import { vi } from 'vitest'

/**
 * Copies everything the process prints through `console` into `printed` (errors with their stack)
 * and still prints it: a canary test reads it for values that must never be logged. Called in a
 * `beforeAll`; the suite's `vi.restoreAllMocks()` ends it.
 */
export function capturePrinted(printed: string[]) {
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    const original = console[method]
    vi.spyOn(console, method).mockImplementation((...parts: unknown[]) => {
      printed.push(
        parts.map((part) => (part instanceof Error ? part.stack : String(part))).join(' '),
      )
      original(...parts)
    })
  }
}

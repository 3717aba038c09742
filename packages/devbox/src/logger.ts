/** The logging the dev-box layer needs; `console` satisfies it. */
export type DevboxLogger = {
  info: (message: string, details?: Record<string, unknown>) => void
  warn: (message: string, details?: Record<string, unknown>) => void
  error: (message: string, details?: Record<string, unknown>) => void
}

export const silentLogger: DevboxLogger = {
  info: () => {},
  warn: () => {},
  error: () => {},
}

import type { DevboxLogger } from './logger.ts'

const keptMessageCharacters = 300

/**
 * `handler`, made safe for an event emitter or a timer: a throw (or a rejected promise) inside
 * it is logged and goes no further. Boxes' output and process events arrive there, where an
 * uncaught throw would end the whole server rather than that box's work.
 */
export function guarded<Arguments extends unknown[]>(
  logger: DevboxLogger,
  where: string,
  handler: (...args: Arguments) => unknown,
): (...args: Arguments) => void {
  const report = (error: unknown) => {
    try {
      logger.error(`${where} failed; the fault stays inside this box`, faultDetails(error))
    } catch {
      // A logger that throws has nowhere left to report to.
    }
  }
  return (...args) => {
    try {
      const result = handler(...args)
      if (result instanceof Promise) result.catch(report)
    } catch (error) {
      report(error)
    }
  }
}

/** The error's kind and the start of its message: a message may quote the tenant's input. */
function faultDetails(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: typeof error }
  const message = error.message.slice(0, keptMessageCharacters)
  return {
    error: error.name,
    message: message.length < error.message.length ? `${message}…` : message,
  }
}

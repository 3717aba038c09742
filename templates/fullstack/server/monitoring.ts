/**
 * Error reporting for the server: Sprout sets SENTRY_DSN (a project of its own error monitoring,
 * reached at http://sprout.internal from inside the app's box), so errors thrown by routes show
 * up in Sprout's Errors page. Without SENTRY_DSN (outside Sprout) nothing is sent.
 */
import * as Sentry from '@sentry/node'

// In development Vite loads this file again after each server edit; one init is enough.
if (process.env.SENTRY_DSN && !Sentry.isInitialized()) {
  Sentry.init({ dsn: process.env.SENTRY_DSN, environment: process.env.NODE_ENV ?? 'development' })
}

/** Sends an error to Sprout's error monitoring (when SENTRY_DSN is set). */
export function reportError(error: unknown) {
  Sentry.captureException(error)
}

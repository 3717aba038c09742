import { randomUUID } from 'node:crypto'
import { expect, type Page } from '@playwright/test'

/**
 * Reports a browser error to the application's ingest as the Sentry SDK would
 * (docs/product/error-monitoring.md "Ingest"): faster than making the preview throw, for tests
 * that need errors listed, not the reporter itself.
 */
export async function reportBrowserError(page: Page, dsn: string, type: string, message: string) {
  const { username: key, pathname, origin } = new URL(dsn)
  const eventId = randomUUID().replaceAll('-', '')
  const event = JSON.stringify({
    event_id: eventId,
    timestamp: Date.now() / 1000,
    platform: 'javascript',
    level: 'error',
    environment: 'preview',
    request: { url: 'http://app.preview.localhost/' },
    exception: {
      values: [
        {
          type,
          value: message,
          stacktrace: {
            frames: [
              {
                function: 'onClick',
                filename: 'http://app.preview.localhost/src/App.tsx',
                lineno: 12,
                colno: 5,
                in_app: true,
              },
            ],
          },
        },
      ],
    },
  })
  const envelope = [
    JSON.stringify({ event_id: eventId, sent_at: new Date().toISOString() }),
    JSON.stringify({ type: 'event', length: Buffer.byteLength(event) }),
    event,
  ].join('\n')
  const answer = await page.request.post(`${origin}/api${pathname}/envelope/?sentry_key=${key}`, {
    headers: { 'Content-Type': 'text/plain' },
    data: envelope,
  })
  expect(answer.status(), await answer.text()).toBe(200)
}

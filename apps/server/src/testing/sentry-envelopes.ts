import { createEventEnvelope, type Event, makeDsn, serializeEnvelope } from '@sentry/core'

/** Test helper: envelopes as Sentry's SDKs build them (their own serializer). */
export function sdkEnvelope(
  dsn: string,
  event: Event,
  options: { tunnel?: boolean; sdk?: string } = {},
): string {
  const components = makeDsn(dsn)
  if (!components) throw new Error(`not a DSN: ${dsn}`)
  const envelope = createEventEnvelope(
    event,
    components,
    { sdk: { name: options.sdk ?? 'sentry.javascript.browser', version: '11.12.0' } },
    options.tunnel ? '/__sprout/envelope' : undefined,
  )
  const serialized = serializeEnvelope(envelope)
  return typeof serialized === 'string' ? serialized : Buffer.from(serialized).toString('utf8')
}

let counter = 0

/** A browser error event as the browser SDK reports it: frames oldest first, the throw last. */
export function browserErrorEvent(
  message: string,
  overrides: { type?: string; frames?: { function: string; file: string }[] } & Event = {},
): Event {
  const { type = 'TypeError', frames, ...rest } = overrides
  const stackFrames = (
    frames ?? [
      { function: 'onClick', file: 'http://app.preview.localhost:3000/src/App.tsx?t=1700000000' },
      { function: 'loadUser', file: 'http://app.preview.localhost:3000/src/user.ts' },
    ]
  ).map((frame, index) => ({
    function: frame.function,
    filename: frame.file,
    abs_path: frame.file,
    lineno: 10 + index,
    colno: 5,
    in_app: true,
  }))
  return {
    event_id:
      (++counter).toString(16).padStart(8, '0') + crypto.randomUUID().replaceAll('-', '').slice(8),
    timestamp: Date.now() / 1000,
    platform: 'javascript',
    level: 'error',
    release: 'app@1.0.0',
    environment: 'preview',
    request: {
      url: 'http://app.preview.localhost:3000/users/42',
      headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0' },
    },
    exception: { values: [{ type, value: message, stacktrace: { frames: stackFrames } }] },
    breadcrumbs: [{ category: 'ui.click', message: 'button#save', timestamp: Date.now() / 1000 }],
    tags: { route: '/users/:id' },
    ...rest,
  }
}

import { toStorableText } from '@sprout/protocol/text/well-formed.ts'
import { EnvelopeError } from './envelope.ts'
import { type Frame, fingerprintOf, stackLine } from './grouping.ts'
import { cleanEvent } from './redact-event.ts'

/** What ingest keeps of one Sentry event (docs/product/error-monitoring.md "Ingest"). */
export type ErrorRecord = {
  id: string
  applicationId: string
  fingerprint: string
  errorType: string
  message: string
  stack: string[]
  source: 'browser' | 'server'
  occurredAt: Date
  url: string | null
  release: string | null
  context: Record<string, unknown>
  sessionData: Record<string, unknown>
}

/** Hooks of the reporters (source maps, the vault's redaction); see service.ts. */
export type RecordHooks = {
  symbolicate?: (applicationId: string, frames: Frame[]) => Promise<Frame[]>
  redact?: (applicationId: string, text: string) => string
}

const stackFramesKept = 50
const breadcrumbsKept = 10
const textLimit = 8 * 1024

type Json = Record<string, unknown>

const objectAt = (value: unknown): Json =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {}
const textAt = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : undefined

/** `event_id` as a uuid (Sentry sends 32 hex digits), or undefined when it is not one. */
export function eventUuid(eventId: unknown): string | undefined {
  if (typeof eventId !== 'string') return undefined
  const hex = eventId.replaceAll('-', '').toLowerCase()
  if (!/^[0-9a-f]{32}$/.test(hex)) return undefined
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

function framesOf(exception: Json): Frame[] {
  const frames = objectAt(exception.stacktrace).frames
  if (!Array.isArray(frames)) return []
  // Sentry lists frames oldest first; the throw is the last one.
  return frames
    .slice(-stackFramesKept)
    .reverse()
    .map((value) => {
      const frame = objectAt(value)
      const path = textAt(frame.abs_path) ?? textAt(frame.filename) ?? textAt(frame.module) ?? '?'
      return {
        function: textAt(frame.function) ?? '?',
        path,
        ...(typeof frame.lineno === 'number' ? { line: frame.lineno } : {}),
        ...(typeof frame.colno === 'number' ? { column: frame.colno } : {}),
        inApp: frame.in_app !== false && !path.includes('/node_modules/'),
      }
    })
}

function messageOf(event: Json): string {
  const logentry = objectAt(event.logentry)
  const message = event.message
  if (typeof message === 'string') return message
  const structured = objectAt(message)
  return (
    textAt(logentry.formatted) ??
    textAt(logentry.message) ??
    textAt(structured.formatted) ??
    textAt(structured.message) ??
    ''
  )
}

/** Sentry keeps an event's own time only within 30 days back and a minute ahead of its arrival. */
const pastKeptMs = 30 * 24 * 60 * 60 * 1000
const futureDriftMs = 60 * 1000

function occurredAt(timestamp: unknown, receivedAt: Date): Date {
  let time: number | undefined
  if (typeof timestamp === 'number') time = timestamp * 1000
  else if (typeof timestamp === 'string') {
    time = /^\s*-?\d+(\.\d+)?\s*$/.test(timestamp)
      ? Number(timestamp) * 1000
      : Date.parse(timestamp)
  }
  const received = receivedAt.getTime()
  if (time === undefined || !Number.isFinite(time)) return receivedAt
  if (time < received - pastKeptMs || time > received + futureDriftMs) return receivedAt
  // A client clock ahead of ours must not put an error in the future.
  return new Date(Math.min(time, received))
}

function sourceOf(event: Json): 'browser' | 'server' {
  const sdk = textAt(objectAt(event.sdk).name) ?? ''
  if (/node|bun|deno|server|vercel-edge|cloudflare/.test(sdk)) return 'server'
  if (event.platform === 'node') return 'server'
  return 'browser'
}

const cut = (text: string) => (text.length > textLimit ? `${text.slice(0, textLimit)}…` : text)

/**
 * One event as a record: type, message, stack (newest frame first), context and session data.
 * Every string of the event, in whatever field, is made storable (lone surrogates and NUL become
 * U+FFFD) and passed through `redact` before anything is read from it.
 */
export async function recordOf(
  applicationId: string,
  received: Json,
  envelopeEventId: unknown,
  receivedAt: Date,
  requestUserAgent: string | undefined,
  hooks: RecordHooks,
): Promise<ErrorRecord> {
  const redact = (text: string) =>
    toStorableText(hooks.redact ? hooks.redact(applicationId, text) : text)
  const event = objectAt(cleanEvent(received, redact))
  const id = eventUuid(event.event_id ?? envelopeEventId)
  if (!id) throw new EnvelopeError(400, 'The event\'s "event_id" must be 32 hex digits')
  const values = objectAt(event.exception).values
  const exceptions = Array.isArray(values) ? values.map(objectAt) : []
  // The last exception is the one thrown (earlier ones are its causes).
  const exception = exceptions.at(-1)
  let frames = exception ? framesOf(exception) : []
  const symbolicated = Boolean(hooks.symbolicate && frames.length > 0)
  if (hooks.symbolicate && symbolicated) frames = await hooks.symbolicate(applicationId, frames)
  const errorType = cut(textAt(exception?.type) ?? (exception ? 'Error' : 'Message'))
  const message = cut(textAt(exception?.value) ?? messageOf(event))
  const request = objectAt(event.request)
  const headers = objectAt(request.headers)
  const contexts = objectAt(event.contexts)
  const url = textAt(request.url) ?? null
  const release = textAt(event.release) ?? null
  const breadcrumbs = objectAt(event.breadcrumbs).values ?? event.breadcrumbs
  const context = {
    message,
    ...(url ? { url } : {}),
    level: textAt(event.level) ?? 'error',
    ...(textAt(event.transaction) ? { transaction: event.transaction } : {}),
    breadcrumbs: Array.isArray(breadcrumbs) ? breadcrumbs.slice(-breadcrumbsKept) : [],
    tags: objectAt(event.tags),
  }
  const nameVersion = (value: unknown) => {
    const part = objectAt(value)
    const name = textAt(part.name)
    return name ? [name, textAt(part.version)].filter(Boolean).join(' ') : undefined
  }
  const sessionData = {
    user_agent:
      textAt(headers['User-Agent']) ??
      textAt(headers['user-agent']) ??
      (requestUserAgent === undefined ? undefined : redact(requestUserAgent)),
    url,
    release,
    environment: textAt(event.environment),
    browser: nameVersion(contexts.browser),
    os: nameVersion(contexts.os),
    runtime: nameVersion(contexts.runtime),
  }
  // Source maps bring new text (the app's own names), so symbolicated lines are redacted again.
  const stack = frames.map((frame) => (symbolicated ? redact(stackLine(frame)) : stackLine(frame)))
  return {
    id,
    applicationId,
    fingerprint: fingerprintOf(errorType, message, frames, event.fingerprint),
    errorType,
    message,
    stack,
    source: sourceOf(event),
    occurredAt: occurredAt(event.timestamp, receivedAt),
    url,
    release,
    context,
    sessionData,
  }
}

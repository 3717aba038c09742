import type { Database } from '@sprout/db/database.ts'
import { applications } from '@sprout/db/schema/applications.ts'
import {
  APP_MAIL_BODY_MAX_BYTES,
  APP_MAIL_NOT_ONE_ADDRESS_TEXT,
  APP_MAIL_OFF_TEXT,
  APP_MAIL_PER_HOUR,
  appMailRateLimitText,
  appMailRequestSchema,
} from '@sprout/protocol/api/app-mail.ts'
import { toStorableText } from '@sprout/protocol/text/well-formed.ts'
import { eq } from 'drizzle-orm'
import { z } from 'zod'
import { isSingleAddress } from '../mail/header-values.ts'
import type { Mailer } from '../mail/mailer.ts'
import { escapeHtml } from '../mail/message-bodies.ts'
import { countAppMailSince } from '../mail/outbox.ts'
import type { AppTokens } from './app-tokens.ts'
import type { TokenAnswer } from './integration-token.ts'

/** Sends an app's own message through Sprout's outbox, as the app (decision 046). */
export type AppMailRelay = {
  configured: () => boolean
  /** Messages one app may have relayed in an hour. */
  perHour: number
  send: (
    applicationId: string,
    message: z.output<typeof appMailRequestSchema>,
  ) => Promise<'queued' | 'rate-limited'>
}

const urls = /https?:\/\/[^\s<>"']+/g

/** The text as HTML that shows it, with its links clickable (verification and reset links). */
function textToHtml(text: string): string {
  const linked = escapeHtml(text).replace(urls, (url) => `<a href="${url}">${url}</a>`)
  return `<div style="font-family:system-ui,sans-serif;white-space:pre-wrap">${linked}</div>`
}

export function createAppMailRelay(input: {
  db: Database
  mailer: Pick<Mailer, 'configured' | 'enqueue'>
  perHour?: number
}): AppMailRelay {
  const perHour = input.perHour ?? APP_MAIL_PER_HOUR
  return {
    configured: () => input.mailer.configured,
    perHour,
    send: async (applicationId, message) => {
      const since = new Date(Date.now() - 3_600_000)
      if ((await countAppMailSince(input.db, applicationId, since)) >= perHour) {
        return 'rate-limited'
      }
      const rows = await input.db
        .select({ name: applications.name })
        .from(applications)
        .where(eq(applications.id, applicationId))
        .limit(1)
      const text = toStorableText(message.text)
      await input.mailer.enqueue({
        kind: 'app-mail',
        to: message.to,
        subject: toStorableText(message.subject),
        text,
        html: textToHtml(text),
        applicationId,
        fromName: rows[0]?.name,
      })
      return 'queued'
    },
  }
}

/**
 * `POST /mail` (decision 046): app token → application → its message into the outbox, from
 * MAIL_FROM's address under the app's name. Through sprout.internal the asking box must be the
 * token's application's; at PUBLIC_URL the token alone says which app asks.
 */
export async function answerMailRequest(input: {
  authorization: string | undefined
  /** The request's body as text; undefined when it was past APP_MAIL_BODY_MAX_BYTES. */
  body: string | undefined
  box?: { applicationId: string | undefined }
  appTokens: AppTokens
  relay: AppMailRelay
}): Promise<TokenAnswer> {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(input.authorization ?? '')?.[1]
  const refused = (error: string) => ({ status: 401, body: { error } })
  if (!bearer) return refused('Send Authorization: Bearer $SPROUT_APP_TOKEN')
  const owner = await input.appTokens.ownerOf(bearer)
  if (!owner) return refused('This app token is not valid (was the app deleted?)')
  if (input.box && input.box.applicationId !== owner.applicationId) {
    return refused("This app token is not this app's")
  }
  if (input.body === undefined) {
    return { status: 413, body: { error: `The message is over ${APP_MAIL_BODY_MAX_BYTES} bytes` } }
  }
  let json: unknown
  try {
    json = JSON.parse(input.body)
  } catch {
    return { status: 400, body: { error: 'The body is not JSON: send { to, subject, text }' } }
  }
  const parsed = appMailRequestSchema.safeParse(json)
  if (!parsed.success) return { status: 400, body: { error: z.prettifyError(parsed.error) } }
  if (!isSingleAddress(parsed.data.to)) {
    return { status: 400, body: { error: APP_MAIL_NOT_ONE_ADDRESS_TEXT } }
  }
  if (!input.relay.configured())
    return { status: 503, body: { error: APP_MAIL_OFF_TEXT, mail: 'off' } }
  const sent = await input.relay.send(owner.applicationId, parsed.data)
  if (sent === 'rate-limited') {
    return {
      status: 429,
      body: { error: appMailRateLimitText(input.relay.perHour) },
    }
  }
  return { status: 202, body: { queued: true } }
}

import { z } from 'zod'
import { EMAIL_MAX } from './input-limits.ts'

// An app's own mail, relayed through Sprout (docs/product/mail.md "An app's own mail").

/** `POST {SPROUT_INTERNAL_URL}/mail` with `Authorization: Bearer $SPROUT_APP_TOKEN`. */
export const APP_MAIL_PATH = '/mail'
/** Messages one app may have relayed in an hour. */
export const APP_MAIL_PER_HOUR = 100
export const APP_MAIL_BODY_MAX_BYTES = 64 * 1024
export const APP_MAIL_SUBJECT_MAX = 200
export const APP_MAIL_TEXT_MAX = 20_000

export const appMailRequestSchema = z.strictObject({
  to: z.string().trim().max(EMAIL_MAX, `must be at most ${EMAIL_MAX} characters`),
  subject: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(APP_MAIL_SUBJECT_MAX, `must be at most ${APP_MAIL_SUBJECT_MAX} characters`),
  text: z
    .string()
    .min(1, 'must not be empty')
    .max(APP_MAIL_TEXT_MAX, `must be at most ${APP_MAIL_TEXT_MAX} characters`),
})

export const APP_MAIL_OFF_TEXT =
  'Mail is off on this Sprout installation (no SMTP_URL): the message was not sent.'
export const APP_MAIL_NOT_ONE_ADDRESS_TEXT = 'to: must be one email address such as ada@example.com'
export const appMailRateLimitText = (limit: number) =>
  `This app has sent ${limit} messages in the last hour, its limit: try again later.`

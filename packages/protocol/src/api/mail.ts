import { z } from 'zod'

/** docs/product/mail.md "What the admin sees": a message the mail server has not taken yet. */
export const mailFailureSchema = z.object({
  id: z.string(),
  kind: z.string(),
  recipient: z.string(),
  subject: z.string(),
  /** pending: tried again at `nextAttemptAt`; failed: retries exhausted, waits for Retry. */
  status: z.enum(['pending', 'failed']),
  attempts: z.number(),
  lastError: z.string(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  /** When a pending message is tried again; null once failed. */
  nextAttemptAt: z.string().nullable(),
})
export type MailFailure = z.infer<typeof mailFailureSchema>

/** `GET /api/admin/mail`. */
export const mailOverviewSchema = z.object({
  configured: z.boolean(),
  from: z.string(),
  pending: z.number(),
  failures: z.array(mailFailureSchema),
})
export type MailOverview = z.infer<typeof mailOverviewSchema>

/** The failures `GET /api/admin/mail` lists, newest first. */
export const MAIL_FAILURES_SHOWN = 100
/** How often the admin's Mail tab asks again. */
export const MAIL_OVERVIEW_POLL_MS = 10_000

export const mailAlreadySentText = 'This message was already sent'
export const mailNotFoundText = 'No such message'
export const mailRetryNeedsSmtpText = 'Mail is not configured: set SMTP_URL to send it'

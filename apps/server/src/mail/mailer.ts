import type { DatabaseHandle } from '@sprout/db/database.ts'
import type { Config } from '../config/config.ts'
import {
  createMailWorker,
  defaultMailRetry,
  defaultMailWorkerTiming,
  type MailRetry,
  type MailWorkerTiming,
} from './mail-worker.ts'
import { insertMail } from './outbox.ts'
import { createSmtpSender, defaultSmtpTimeouts, type SmtpTimeouts } from './smtp-sender.ts'

/** What a message is for (docs/product/mail.md). */
export type MailKind =
  | 'password-reset'
  | 'email-verification'
  | 'invitation'
  | 'email-change'
  | 'app-mail'

export type OutgoingMail = {
  kind: MailKind
  to: string
  subject: string
  text: string
  html: string
  /** The app whose message it is (app-mail). */
  applicationId?: string
  /** The display name before MAIL_FROM's address (app-mail: the app's name). */
  fromName?: string
}

export type Mailer = {
  /** SMTP_URL is set: mail is sent. Unset, every flow works by links and the screens say so. */
  readonly configured: boolean
  /** MAIL_FROM, or Sprout at PUBLIC_URL's host. */
  readonly from: string
  /** Writes the message to the outbox; the worker sends it (a no-op without SMTP). */
  enqueue: (mail: OutgoingMail) => Promise<void>
  /** Sends what is due now rather than at the next poll (after an admin's Retry). */
  wake: () => void
  /** Starts the worker: messages pending from before a restart go out first. */
  start: () => void
  /** Stops the worker once a send in flight has finished or been cut short. */
  stop: () => Promise<void>
}

/**
 * The outbox and its worker (docs/product/mail.md "Outbox"): a message is a row first, so a
 * mail server that is down or a restart loses nothing. Tests pass shorter retries and timeouts.
 */
export function createMailer(options: {
  database: DatabaseHandle
  config: Pick<Config, 'mail'>
  retry?: MailRetry
  timeouts?: SmtpTimeouts
  timing?: Partial<MailWorkerTiming>
}): Mailer {
  const { database, config } = options
  const db = database.db
  const configured = config.mail.smtpUrl !== undefined
  const worker = configured
    ? createMailWorker({
        db,
        sender: createSmtpSender(config.mail, options.timeouts ?? defaultSmtpTimeouts),
        retry: options.retry ?? defaultMailRetry,
        timing: { ...defaultMailWorkerTiming, ...options.timing },
      })
    : undefined
  return {
    configured,
    from: config.mail.from,
    enqueue: async (mail) => {
      // Without SMTP nothing is kept: a link written now must not go out when SMTP is set later.
      if (!worker) return
      const { to: recipient, ...rest } = mail
      await insertMail(db, { recipient, ...rest })
      worker.wake()
    },
    wake: () => worker?.wake(),
    start: () => worker?.start(),
    stop: async () => {
      await worker?.stop()
    },
  }
}

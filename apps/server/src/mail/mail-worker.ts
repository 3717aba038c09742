import type { Database } from '@sprout/db/database.ts'
import {
  type ClaimedMail,
  claimDueMail,
  markMailSent,
  millisecondsUntilDue,
  recordMailFailure,
  releaseMail,
} from './outbox.ts'
import { type SmtpSender, UnsendableMailError } from './smtp-sender.ts'

/** docs/product/mail.md "Retries": the wait doubles from `baseMs` up to `maxMs`. */
export type MailRetry = { baseMs: number; maxMs: number; maxAttempts: number }

export const defaultMailRetry: MailRetry = { baseMs: 30_000, maxMs: 3_600_000, maxAttempts: 8 }

export type MailWorkerTiming = {
  /** How long a claimed message is this process's: longer than any send may take. */
  leaseMs: number
  /** The longest sleep: messages other processes wrote, or whose lease ran out, are found then. */
  pollMs: number
  /** How long a stop lets a send in flight finish before cutting it short. */
  stopGraceMs: number
}

export const defaultMailWorkerTiming: MailWorkerTiming = {
  leaseMs: 300_000,
  pollMs: 30_000,
  stopGraceMs: 5000,
}

/** The wait before attempt `failures + 1`, or undefined once the attempts are used up. */
export function retryDelayMs(retry: MailRetry, failures: number): number | undefined {
  if (failures >= retry.maxAttempts) return undefined
  return Math.min(retry.baseMs * 2 ** (failures - 1), retry.maxMs)
}

const errorText = (error: unknown) =>
  ((error instanceof Error ? error.message : String(error)) || 'Unknown error').slice(0, 1000)

/** Sends the outbox's due messages one at a time, then sleeps until the next is due. */
export function createMailWorker(options: {
  db: Database
  sender: SmtpSender
  retry: MailRetry
  timing: MailWorkerTiming
}) {
  const { db, sender, retry, timing } = options
  let stopped = true
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> | undefined
  let wokenWhileRunning = false
  let inFlight: AbortController | undefined

  async function deliver(mail: ClaimedMail) {
    const controller = new AbortController()
    inFlight = controller
    try {
      await sender.send(mail, controller.signal)
      await markMailSent(db, mail.id)
    } catch (error) {
      if (controller.signal.aborted) return await releaseMail(db, mail.id)
      const failures = mail.attempts + 1
      const retryInMs =
        error instanceof UnsendableMailError ? undefined : retryDelayMs(retry, failures)
      await recordMailFailure(db, mail.id, { error: errorText(error), retryInMs })
    } finally {
      inFlight = undefined
    }
  }

  async function drainThenSleep() {
    wokenWhileRunning = false
    while (!stopped) {
      const mail = await claimDueMail(db, timing.leaseMs)
      if (!mail) break
      await deliver(mail)
    }
    if (stopped || wokenWhileRunning) return
    const wait = (await millisecondsUntilDue(db)) ?? timing.pollMs
    if (!stopped) timer = setTimeout(wake, Math.min(wait, timing.pollMs))
  }

  function wake() {
    if (stopped) return
    if (running) {
      wokenWhileRunning = true
      return
    }
    clearTimeout(timer)
    running = drainThenSleep()
      .catch((error: unknown) => {
        // The database may be gone for a moment: the next poll tries again.
        console.error('[mail] the outbox could not be read:', errorText(error))
        if (!stopped) timer = setTimeout(wake, timing.pollMs)
      })
      .finally(() => {
        running = undefined
        if (wokenWhileRunning) wake()
      })
  }

  return {
    wake,
    start() {
      if (!stopped) return
      stopped = false
      wake()
    },
    /** Lets a send in flight finish for `stopGraceMs`, then cuts it short (it stays pending). */
    async stop() {
      stopped = true
      clearTimeout(timer)
      const grace = setTimeout(() => inFlight?.abort(), timing.stopGraceMs)
      await running
      clearTimeout(grace)
      sender.close()
    },
  }
}

import type { Transporter } from 'nodemailer'
import type { Config } from '../config/config.ts'
import { headerText, isSingleAddress } from './header-values.ts'
import type { ClaimedMail } from './outbox.ts'

/** How long each step of talking to the mail server may take before the attempt fails. */
export type SmtpTimeouts = {
  /** Opening the connection. */
  connectionMs: number
  /** The server's greeting once connected. */
  greetingMs: number
  /** Silence on the connection at any later point. */
  socketMs: number
  /** The whole message, however the server drips its answers. */
  sendMs: number
}

export const defaultSmtpTimeouts: SmtpTimeouts = {
  connectionMs: 10_000,
  greetingMs: 10_000,
  socketMs: 30_000,
  sendMs: 60_000,
}

/** A message the worker must not retry: nothing about it will change by waiting. */
export class UnsendableMailError extends Error {
  override name = 'UnsendableMailError'
}

/**
 * SMTP_URL with SMTP_USER and SMTP_PASSWORD, which win over the URL's credentials (docs/product/
 * mail.md "Settings"). The URL's query (e.g. `tls.rejectUnauthorized=false`) goes to nodemailer.
 */
function transportOptions(mail: Config['mail'], timeouts: SmtpTimeouts) {
  const url = new URL(mail.smtpUrl ?? '')
  const user = mail.user ?? decodeURIComponent(url.username)
  const password = mail.password ?? decodeURIComponent(url.password)
  url.username = ''
  url.password = ''
  return {
    url: url.toString(),
    auth: user === '' ? undefined : { user, pass: password },
    connectionTimeout: timeouts.connectionMs,
    greetingTimeout: timeouts.greetingMs,
    socketTimeout: timeouts.socketMs,
    dnsTimeout: timeouts.connectionMs,
    // Nothing a message holds may make nodemailer read a file or fetch a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  }
}

/**
 * MAIL_FROM, or its address under another display name (an app's own mail goes out as
 * 'Guest book <noreply@example.com>'); nodemailer encodes the name, never parsed as addresses.
 */
function fromOf(mailFrom: string, fromName: string | null) {
  if (!fromName) return mailFrom
  const address = /<([^<>]+)>\s*$/.exec(mailFrom)?.[1] ?? mailFrom.trim()
  return { name: headerText(fromName).slice(0, 100), address }
}

export type SmtpSender = {
  send: (mail: ClaimedMail, signal: AbortSignal) => Promise<void>
  close: () => void
}

export function createSmtpSender(mail: Config['mail'], timeouts: SmtpTimeouts): SmtpSender {
  // nodemailer loads with the first message, not with the server (its start stays fast).
  let transport: Transporter | undefined
  const transportOf = async () => {
    const { createTransport } = await import('nodemailer')
    transport ??= createTransport(transportOptions(mail, timeouts))
    return transport
  }
  return {
    send: async (message, signal) => {
      if (!isSingleAddress(message.recipient)) {
        throw new UnsendableMailError('The recipient is not one email address')
      }
      await (await transportOf()).sendMail({
        from: fromOf(mail.from, message.fromName),
        // An address object is never parsed as a list: the envelope names this one recipient.
        to: { name: '', address: message.recipient },
        subject: headerText(message.subject),
        text: message.textBody,
        html: message.htmlBody,
        signal: AbortSignal.any([signal, AbortSignal.timeout(timeouts.sendMs)]),
      })
    },
    close: () => transport?.close(),
  }
}

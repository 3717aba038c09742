import { headerText } from './header-values.ts'
import type { OutgoingMail } from './mailer.ts'
import { type MessageParts, mailHtml, mailText } from './message-bodies.ts'

/**
 * The messages Sprout sends, word for word as docs/product/mail.md "Messages" shows them: a
 * greeting, what happened, the link, and what to do if it was not you.
 */

const greet = (name: string) => (name.trim() === '' ? 'Hello,' : `Hello ${name.trim()},`)

function composeMail(parts: MessageParts): OutgoingMail {
  return {
    kind: parts.kind,
    to: parts.to,
    subject: headerText(parts.subject),
    text: mailText(parts),
    html: mailHtml(parts),
  }
}

const passwordResetParts = (input: { to: string; name: string; url: string }) => ({
  kind: 'password-reset' as const,
  to: input.to,
  subject: 'Reset your Sprout password',
  greeting: greet(input.name),
  lead: `Someone asked to reset the password of your Sprout account ${input.to}. To choose a new password, open this link within an hour:`,
  linkLabel: 'Choose a new password',
  url: input.url,
  closing: 'If it was not you, ignore this message: your password stays as it is.',
})

const verificationParts = (input: { to: string; name: string; url: string }) => ({
  kind: 'email-verification' as const,
  to: input.to,
  subject: 'Confirm your email address for Sprout',
  greeting: greet(input.name),
  lead: `Please confirm that ${input.to} is your email address by opening this link:`,
  linkLabel: 'Confirm my email address',
  url: input.url,
  closing: 'If you did not create a Sprout account, ignore this message.',
})

const invitationParts = (input: {
  to: string
  inviterName: string
  organizationName: string
  url: string
}) => ({
  kind: 'invitation' as const,
  to: input.to,
  subject: `${input.inviterName} invited you to join ${input.organizationName} on Sprout`,
  greeting: 'Hello,',
  lead: `${input.inviterName} invited you to join the organization ${input.organizationName} on Sprout. To accept, open this link and sign in, or create an account, with this email address (${input.to}):`,
  linkLabel: 'See the invitation',
  url: input.url,
  closing: 'If you were not expecting this invitation, ignore this message.',
})

const emailChangeParts = (input: { to: string; name: string; newEmail: string; url: string }) => ({
  kind: 'email-change' as const,
  to: input.to,
  subject: 'Confirm the new email address of your Sprout account',
  greeting: greet(input.name),
  lead: `Someone asked to change the email address of your Sprout account to ${input.newEmail}. To confirm the change, open this link:`,
  linkLabel: 'Confirm the change',
  url: input.url,
  closing: 'If it was not you, ignore this message: your email address stays as it is.',
})

export const passwordResetMail = (input: { to: string; name: string; url: string }) =>
  composeMail(passwordResetParts(input))

export const verificationMail = (input: { to: string; name: string; url: string }) =>
  composeMail(verificationParts(input))

export const invitationMail = (input: {
  to: string
  inviterName: string
  organizationName: string
  url: string
}) => composeMail(invitationParts(input))

export const emailChangeMail = (input: {
  to: string
  name: string
  newEmail: string
  url: string
}) => composeMail(emailChangeParts(input))

import type { MailKind } from './mailer.ts'

/** A message in its parts (docs/product/mail.md "Messages"): both bodies are made from them. */
export type MessageParts = {
  kind: MailKind
  to: string
  subject: string
  greeting: string
  lead: string
  linkLabel: string
  url: string
  closing: string
}

const htmlEntities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Text as HTML that shows it and does nothing else (names and URLs come from users). */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (match) => htmlEntities[match] ?? '')

/** The plain-text body: the link on a line of its own. */
export function mailText(parts: MessageParts): string {
  return `${parts.greeting}\n\n${parts.lead}\n\n${parts.url}\n\n${parts.closing}\n`
}

/** The HTML body: the same words, a button-like link, and the address for mail apps without links. */
export function mailHtml(parts: MessageParts): string {
  const url = escapeHtml(parts.url)
  return [
    '<!doctype html>',
    '<html><body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1f2937">',
    `<p>${escapeHtml(parts.greeting)}</p>`,
    `<p>${escapeHtml(parts.lead)}</p>`,
    `<p><a href="${url}" style="display: inline-block; padding: 8px 16px; border-radius: 6px; background: #16a34a; color: #ffffff; text-decoration: none">${escapeHtml(parts.linkLabel)}</a></p>`,
    `<p style="font-size: 13px; color: #6b7280; word-break: break-all">${url}</p>`,
    `<p>${escapeHtml(parts.closing)}</p>`,
    '</body></html>',
    '',
  ].join('\n')
}

/**
 * `await sendAppMail({ to, subject, text })` sends an e-mail through Sprout (which uses the mail
 * server its administrator set up). It throws when the mail was refused: too many sent, or a
 * bad address.
 *
 * When mail is off (the installation has none, or the app runs outside Sprout), the dev server
 * prints the message to its log instead, so links in it can still be followed while building;
 * in production it throws, since a link nobody receives would leave the user stuck.
 */
export type AppMail = { to: string; subject: string; text: string }

type MailAnswer = { queued?: boolean; error?: string; mail?: string }

export async function sendAppMail(mail: AppMail): Promise<void> {
  // Read on every call: inside Sprout these may be written after the server started.
  const sproutUrl = process.env.SPROUT_INTERNAL_URL
  const appToken = process.env.SPROUT_APP_TOKEN
  if (!sproutUrl || !appToken) return mailIsOff(mail, 'The app is not running inside Sprout.')
  const response = await fetch(`${sproutUrl}/mail`, {
    method: 'POST',
    headers: { authorization: `Bearer ${appToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ to: mail.to, subject: mail.subject, text: mail.text }),
  })
  if (response.ok) return
  const answer = (await response.json().catch(() => ({}))) as MailAnswer
  if (response.status === 503 && answer.mail === 'off') {
    return mailIsOff(mail, answer.error ?? 'This Sprout has no mail server set up.')
  }
  if (response.status === 429) {
    throw new Error(answer.error ?? 'This app sent too many e-mails: try again later.')
  }
  throw new Error(
    `The e-mail was not sent: ${answer.error ?? `Sprout answered ${response.status}`}`,
  )
}

function mailIsOff(mail: AppMail, reason: string) {
  if (process.env.NODE_ENV === 'production') {
    // No link in the message: it may reach logs and error reports.
    throw new Error(`This app cannot send e-mail yet. ${reason}`)
  }
  console.log(
    [
      `[auth-kit] mail is off: ${reason} The e-mail is printed here instead of sent.`,
      `  to: ${mail.to}`,
      `  subject: ${mail.subject}`,
      ...mail.text.split('\n').map((line) => `  | ${line}`),
    ].join('\n'),
  )
}

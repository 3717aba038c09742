/** docs/product/mail.md "What the admin sees": the settings to set when SMTP_URL is unset. */
const settings = [
  {
    names: ['SMTP_URL'],
    meaning: 'The mail server: smtp://host:587 or smtps://host:465, the login may be in it.',
  },
  { names: ['SMTP_USER', 'SMTP_PASSWORD'], meaning: 'The login, when it is not in SMTP_URL.' },
  { names: ['MAIL_FROM'], meaning: 'The sender, e.g. Sprout <sprout@example.com>.' },
]

export function MailNotConfigured() {
  return (
    <div className="rounded-2xl border border-zinc-200 bg-white p-6 shadow-sm">
      <h3 className="text-base font-semibold text-zinc-900">Mail is not configured</h3>
      <p className="mt-1 text-sm text-zinc-600">
        Sprout sends no mail: password resets, invitations and address confirmations work by links
        people share by hand. To send mail, set these and restart Sprout:
      </p>
      <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-[max-content_1fr] sm:gap-x-6">
        {settings.map((setting) => (
          <div key={setting.names[0]} className="contents">
            <dt className="font-mono text-[13px] text-zinc-800">{setting.names.join(', ')}</dt>
            <dd className="text-zinc-600">{setting.meaning}</dd>
          </div>
        ))}
      </dl>
    </div>
  )
}

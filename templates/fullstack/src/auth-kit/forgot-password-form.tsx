import { type FormEvent, useState } from 'react'
import { postAuth } from './auth-request.ts'
import { Field, FormMessage, type FormNote, formClassName, SubmitButton } from './form-parts.tsx'

/**
 * Sends a link to choose a new password. The link opens `resetPath` (/reset-password unless
 * said), the page that shows `<ResetPasswordForm />`.
 */
export function ForgotPasswordForm({ resetPath = '/reset-password' }: { resetPath?: string }) {
  const [busy, setBusy] = useState(false)
  const [note, setNote] = useState<FormNote | null>(null)

  const sendLink = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    setBusy(true)
    const answer = await postAuth('request-password-reset', {
      email: form.get('email'),
      redirectTo: resetPath,
    })
    setBusy(false)
    setNote(
      answer.ok
        ? // The same answer whether or not the address has an account, so as not to tell which.
          {
            text: 'If an account uses this address, we sent it a link to choose a new password.',
            problem: false,
          }
        : { text: answer.message, problem: true },
    )
  }

  return (
    <form onSubmit={sendLink} className={formClassName}>
      <Field label="Email" name="email" type="email" autoComplete="email" />
      <SubmitButton busy={busy}>Send reset link</SubmitButton>
      <FormMessage message={note} />
    </form>
  )
}

import { type FormEvent, useState } from 'react'
import { postAuth } from './auth-request.ts'
import { Field, FormMessage, type FormNote, formClassName, SubmitButton } from './form-parts.tsx'

const expiredLink = 'This link has expired or was already used: ask for a new one.'

/**
 * The page the e-mailed reset link opens (`/reset-password?token=…`): a new password. Then
 * `onPasswordSet` runs (e.g. to show the sign-in form); other sessions of the user are ended.
 */
export function ResetPasswordForm({ onPasswordSet }: { onPasswordSet?: () => void }) {
  const [token] = useState(() => new URLSearchParams(window.location.search).get('token'))
  const [busy, setBusy] = useState(false)
  const [note, setNote] = useState<FormNote | null>(
    token ? null : { text: expiredLink, problem: true },
  )

  const setPassword = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    setBusy(true)
    const answer = await postAuth('reset-password', { token, newPassword: form.get('password') })
    setBusy(false)
    if (!answer.ok) return setNote({ text: answer.message, problem: true })
    setNote({ text: 'Your password is changed: you can sign in now.', problem: false })
    onPasswordSet?.()
  }

  return (
    <form onSubmit={setPassword} className={formClassName}>
      <Field
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        minLength={8}
      />
      <SubmitButton busy={busy || !token}>Set new password</SubmitButton>
      <FormMessage message={note} />
    </form>
  )
}

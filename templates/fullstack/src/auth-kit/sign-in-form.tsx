import { type FormEvent, useState } from 'react'
import { announceAuthChange } from './auth-changes.ts'
import { postAuth } from './auth-request.ts'
import { Field, FormMessage, type FormNote, formClassName, SubmitButton } from './form-parts.tsx'

/** Email and password. Once signed in, `useAppUser()` gives the user and `onSignedIn` runs. */
export function SignInForm({ onSignedIn }: { onSignedIn?: () => void }) {
  const [busy, setBusy] = useState(false)
  const [note, setNote] = useState<FormNote | null>(null)

  const signIn = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    setBusy(true)
    const answer = await postAuth('sign-in/email', {
      email: form.get('email'),
      password: form.get('password'),
    })
    setBusy(false)
    if (!answer.ok) return setNote({ text: answer.message, problem: true })
    setNote(null)
    announceAuthChange()
    onSignedIn?.()
  }

  return (
    <form onSubmit={signIn} className={formClassName}>
      <Field label="Email" name="email" type="email" autoComplete="email" />
      <Field label="Password" name="password" type="password" autoComplete="current-password" />
      <SubmitButton busy={busy}>Sign in</SubmitButton>
      <FormMessage message={note} />
    </form>
  )
}

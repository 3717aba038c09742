import { type FormEvent, useState } from 'react'
import { postAuth } from './auth-request.ts'
import { Field, FormMessage, type FormNote, formClassName, SubmitButton } from './form-parts.tsx'

/**
 * Name, email and password; then the user confirms the address by the e-mailed link, which
 * signs them in and opens `afterConfirmPath` (the home page unless said).
 */
export function SignUpForm({ afterConfirmPath = '/' }: { afterConfirmPath?: string }) {
  const [busy, setBusy] = useState(false)
  const [note, setNote] = useState<FormNote | null>(null)

  const signUp = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    setBusy(true)
    const answer = await postAuth('sign-up/email', {
      name: form.get('name'),
      email: form.get('email'),
      password: form.get('password'),
      callbackURL: afterConfirmPath,
    })
    setBusy(false)
    setNote(
      answer.ok
        ? { text: 'Check your email for a link to confirm your address.', problem: false }
        : { text: answer.message, problem: true },
    )
  }

  return (
    <form onSubmit={signUp} className={formClassName}>
      <Field label="Name" name="name" autoComplete="name" />
      <Field label="Email" name="email" type="email" autoComplete="email" />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        minLength={8}
      />
      <SubmitButton busy={busy}>Sign up</SubmitButton>
      <FormMessage message={note} />
    </form>
  )
}

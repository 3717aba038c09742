import { useState } from 'react'
import { authClient, unwrapAuthResult } from '../../lib/auth-client.ts'
import type { Session } from '../../lib/session-query.ts'
import { AuthForm, EmailField, NameField, PasswordField } from './auth-form.tsx'

export const MIN_PASSWORD_LENGTH = 8

export function SignUpForm({ onSignedUp }: { onSignedUp: (session: Session) => Promise<void> }) {
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const signUp = () => {
    const trimmedEmail = email.trim()
    return unwrapAuthResult(
      authClient.signUp.email({
        name: name.trim() || trimmedEmail.split('@')[0] || trimmedEmail,
        email: trimmedEmail,
        password,
      }),
    )
  }
  return (
    <AuthForm
      authenticate={signUp}
      onAuthenticated={onSignedUp}
      submitLabel="Create account"
      pendingLabel="Creating account..."
    >
      <NameField value={name} onValue={setName} autoFocus />
      <EmailField value={email} onValue={setEmail} />
      <PasswordField
        value={password}
        onValue={setPassword}
        autoComplete="new-password"
        minLength={MIN_PASSWORD_LENGTH}
      />
      <p className="-mt-2 text-xs text-zinc-500">At least {MIN_PASSWORD_LENGTH} characters.</p>
    </AuthForm>
  )
}

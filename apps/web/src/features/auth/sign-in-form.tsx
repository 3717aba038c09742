import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { authClient, unwrapAuthResult } from '../../lib/auth-client.ts'
import type { Session } from '../../lib/session-query.ts'
import { AuthForm, EmailField, PasswordField } from './auth-form.tsx'
import { authTexts } from './auth-texts.ts'

export function SignInForm({ onSignedIn }: { onSignedIn: (session: Session) => Promise<void> }) {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  return (
    <AuthForm
      authenticate={() =>
        unwrapAuthResult(authClient.signIn.email({ email: email.trim(), password }))
      }
      onAuthenticated={onSignedIn}
      submitLabel="Sign in"
      pendingLabel="Signing in..."
    >
      <EmailField value={email} onValue={setEmail} autoFocus />
      <PasswordField value={password} onValue={setPassword} autoComplete="current-password" />
      <Link
        to="/forgot-password"
        className="-mt-2 self-end text-xs font-medium text-accent-700 hover:underline"
      >
        {authTexts.forgotLink}
      </Link>
    </AuthForm>
  )
}

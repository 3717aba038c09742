import { useState } from 'react'
import { authClient, unwrapAuthResult } from '../../lib/auth-client.ts'
import type { Session } from '../../lib/session-query.ts'
import { AuthForm, type AuthPending, EmailField, NameField, PasswordField } from './auth-form.tsx'
import { authTexts } from './auth-texts.ts'

/** The header the server's sign-up rules read (apps/server auth.ts `setupCodeHeader`). */
const setupCodeHeader = 'x-sprout-setup-code'

export const MIN_PASSWORD_LENGTH = 8

type SignUpFormProps = {
  onSignedUp: (session: Session) => Promise<void>
  /** The setup link's code (/setup): lets the first admin in whatever the sign-up rules. */
  setupCode?: string
  /** Where the mailed confirmation link opens, signed in (REQUIRE_EMAIL_VERIFICATION). */
  verifiedPath?: string
}

export function SignUpForm({ onSignedUp, setupCode, verifiedPath }: SignUpFormProps) {
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const signUp = async (): Promise<AuthPending | undefined> => {
    const trimmedEmail = email.trim()
    await unwrapAuthResult(
      authClient.signUp.email(
        {
          name: name.trim() || trimmedEmail.split('@')[0] || trimmedEmail,
          email: trimmedEmail,
          password,
          callbackURL: verifiedPath,
        },
        setupCode ? { headers: { [setupCodeHeader]: setupCode } } : undefined,
      ),
    )
    // REQUIRE_EMAIL_VERIFICATION: the account exists, the session starts from the mailed link
    // (the answer carries no token either way: the server keeps them out of bodies).
    const { data: session } = await authClient.getSession()
    if (!session) return { pendingMessage: authTexts.verificationSent(trimmedEmail) }
    return undefined
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

import { useMutation } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { TextField } from '../../components/ui/text-field.tsx'
import { authClient, unwrapAuthResult } from '../../lib/auth-client.ts'
import type { Session } from '../../lib/session-query.ts'
import { useStartSession } from './use-start-session.ts'

export const MIN_PASSWORD_LENGTH = 8

export function SignUpForm({ onSignedUp }: { onSignedUp: (session: Session) => Promise<void> }) {
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const startSession = useStartSession()
  const signUp = useMutation({
    mutationFn: async () => {
      const trimmedEmail = email.trim()
      await unwrapAuthResult(
        authClient.signUp.email({
          name: name.trim() || trimmedEmail.split('@')[0] || trimmedEmail,
          email: trimmedEmail,
          password,
        }),
      )
      await onSignedUp(await startSession())
    },
  })

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    signUp.mutate()
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4">
      {signUp.error && <Alert>{signUp.error.message}</Alert>}
      <TextField
        label="Name"
        name="name"
        autoComplete="name"
        value={name}
        onChange={(event) => setName(event.target.value)}
        autoFocus
      />
      <TextField
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        required
      />
      <TextField
        label="Password"
        type="password"
        name="password"
        autoComplete="new-password"
        minLength={MIN_PASSWORD_LENGTH}
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        required
      />
      <p className="-mt-2 text-xs text-zinc-500">At least {MIN_PASSWORD_LENGTH} characters.</p>
      <Button type="submit" disabled={signUp.isPending} className="mt-2 w-full">
        {signUp.isPending ? 'Creating account...' : 'Create account'}
      </Button>
    </form>
  )
}

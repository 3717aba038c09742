import { useMutation } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { TextField } from '../../components/ui/text-field.tsx'
import { authClient, unwrapAuthResult } from '../../lib/auth-client.ts'
import type { Session } from '../../lib/session-query.ts'
import { useStartSession } from './use-start-session.ts'

export function SignInForm({ onSignedIn }: { onSignedIn: (session: Session) => Promise<void> }) {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const startSession = useStartSession()
  const signIn = useMutation({
    mutationFn: async () => {
      await unwrapAuthResult(authClient.signIn.email({ email: email.trim(), password }))
      await onSignedIn(await startSession())
    },
  })

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    signIn.mutate()
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4">
      {signIn.error && <Alert>{signIn.error.message}</Alert>}
      <TextField
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        required
        autoFocus
      />
      <TextField
        label="Password"
        type="password"
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        required
      />
      <Button type="submit" disabled={signIn.isPending} className="mt-2 w-full">
        {signIn.isPending ? 'Signing in...' : 'Sign in'}
      </Button>
    </form>
  )
}

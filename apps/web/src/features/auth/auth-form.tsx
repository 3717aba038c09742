import { useMutation } from '@tanstack/react-query'
import type { FormEvent, ReactNode } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { TextField } from '../../components/ui/text-field.tsx'
import type { Session } from '../../lib/session-query.ts'
import { useStartSession } from './use-start-session.ts'

/** What an auth call may answer instead of a session: a text saying what the user does next. */
export type AuthPending = { pendingMessage: string }

const isPending = (value: unknown): value is AuthPending =>
  typeof value === 'object' && value !== null && 'pendingMessage' in value

type AuthFormProps = {
  /** The auth call (sign in or sign up); it throws when refused. */
  authenticate: () => Promise<unknown>
  onAuthenticated: (session: Session) => Promise<void>
  submitLabel: string
  pendingLabel: string
  children: ReactNode
}

/** A sign-in or sign-up form: its fields, the refusal above them and the submit button. */
export function AuthForm({
  authenticate,
  onAuthenticated,
  submitLabel,
  pendingLabel,
  children,
}: AuthFormProps) {
  const startSession = useStartSession()
  const submit = useMutation({
    mutationFn: async () => {
      const outcome = await authenticate()
      if (isPending(outcome)) return outcome
      await onAuthenticated(await startSession())
      return undefined
    },
  })

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    submit.mutate()
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4">
      {submit.error && <Alert>{submit.error.message}</Alert>}
      {submit.data && <Alert tone="success">{submit.data.pendingMessage}</Alert>}
      {children}
      <Button type="submit" disabled={submit.isPending} className="mt-2 w-full">
        {submit.isPending ? pendingLabel : submitLabel}
      </Button>
    </form>
  )
}

type FieldProps = { value: string; onValue: (value: string) => void; autoFocus?: boolean }

export function NameField({ value, onValue, autoFocus }: FieldProps) {
  return (
    <TextField
      label="Name"
      name="name"
      autoComplete="name"
      value={value}
      onChange={(event) => onValue(event.target.value)}
      autoFocus={autoFocus}
    />
  )
}

export function EmailField({ value, onValue, autoFocus }: FieldProps) {
  return (
    <TextField
      label="Email"
      type="email"
      name="email"
      autoComplete="email"
      value={value}
      onChange={(event) => onValue(event.target.value)}
      required
      autoFocus={autoFocus}
    />
  )
}

export function PasswordField({
  value,
  onValue,
  autoComplete,
  minLength,
  autoFocus,
}: FieldProps & { autoComplete: 'current-password' | 'new-password'; minLength?: number }) {
  return (
    <TextField
      label="Password"
      type="password"
      name="password"
      autoComplete={autoComplete}
      minLength={minLength}
      value={value}
      onChange={(event) => onValue(event.target.value)}
      required
      autoFocus={autoFocus}
    />
  )
}

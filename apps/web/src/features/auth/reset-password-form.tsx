import { useMutation } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { TextField } from '../../components/ui/text-field.tsx'
import { authClient } from '../../lib/auth-client.ts'
import { PasswordField } from './auth-form.tsx'
import { authTexts } from './auth-texts.ts'
import { MIN_PASSWORD_LENGTH } from './sign-up-form.tsx'

/** /reset-password: a new password for the account the link's token names. */
export function ResetPasswordForm({ token, onDone }: { token: string; onDone: () => void }) {
  const [password, setPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const reset = useMutation({
    mutationFn: async () => {
      if (password !== confirmation) throw new Error(authTexts.resetMismatch)
      const { error } = await authClient.resetPassword({ newPassword: password, token })
      if (!error) return
      // An unknown, used or expired token: say so in words, not better-auth's code.
      if (error.code === 'INVALID_TOKEN') throw new Error(authTexts.resetInvalid)
      throw new Error(error.message || authTexts.resetInvalid)
    },
    onSuccess: onDone,
  })
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    reset.mutate()
  }
  if (!token) return <Alert>{authTexts.resetInvalid}</Alert>
  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4">
      {reset.error && <Alert>{reset.error.message}</Alert>}
      <PasswordField
        value={password}
        onValue={setPassword}
        autoComplete="new-password"
        minLength={MIN_PASSWORD_LENGTH}
        autoFocus
      />
      <TextField
        label={authTexts.confirmPassword}
        type="password"
        name="confirm-password"
        autoComplete="new-password"
        minLength={MIN_PASSWORD_LENGTH}
        value={confirmation}
        onChange={(event) => setConfirmation(event.target.value)}
        required
      />
      <p className="-mt-2 text-xs text-zinc-500">At least {MIN_PASSWORD_LENGTH} characters.</p>
      <Button type="submit" disabled={reset.isPending} className="mt-2 w-full">
        {reset.isPending ? 'Saving...' : authTexts.resetSubmit}
      </Button>
    </form>
  )
}

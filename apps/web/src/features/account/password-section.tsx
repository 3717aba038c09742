import { PASSWORD_MAX } from '@sprout/protocol/api/auth.ts'
import { useMutation } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { TextField } from '../../components/ui/text-field.tsx'
import { authClient, unwrapAuthResult } from '../../lib/auth-client.ts'
import { AccountSection } from './account-section.tsx'

/** The sign-up rule (docs/product/auth.md "Sign-in and sign-up"). */
const PASSWORD_MIN = 8
const MISMATCH = 'The new passwords do not match.'

export function PasswordSection({ hasPassword }: { hasPassword: boolean }) {
  const [currentPassword, setCurrentPassword] = useState('')
  const [newPassword, setNewPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const [mismatch, setMismatch] = useState(false)
  const change = useMutation({
    mutationFn: (input: { currentPassword: string; newPassword: string }) =>
      unwrapAuthResult(authClient.changePassword(input)),
    onSuccess: () => {
      setCurrentPassword('')
      setNewPassword('')
      setConfirmation('')
    },
  })
  if (!hasPassword) {
    return (
      <AccountSection title="Password">
        <p className="text-sm text-zinc-500">
          You sign in with single sign-on; there is no password to change.
        </p>
      </AccountSection>
    )
  }
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    change.reset()
    const differs = newPassword !== confirmation
    setMismatch(differs)
    if (!differs) change.mutate({ currentPassword, newPassword })
  }
  return (
    <AccountSection title="Password">
      <form onSubmit={onSubmit} className="flex flex-col gap-3">
        <TextField
          label="Current password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          value={currentPassword}
          onChange={(event) => setCurrentPassword(event.target.value)}
          maxLength={PASSWORD_MAX}
          required
        />
        <TextField
          label="New password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          value={newPassword}
          onChange={(event) => setNewPassword(event.target.value)}
          minLength={PASSWORD_MIN}
          maxLength={PASSWORD_MAX}
          required
        />
        <TextField
          label="Confirm new password"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          value={confirmation}
          onChange={(event) => setConfirmation(event.target.value)}
          minLength={PASSWORD_MIN}
          maxLength={PASSWORD_MAX}
          required
        />
        <p className="-mt-1 text-xs text-zinc-500">At least {PASSWORD_MIN} characters.</p>
        <div>
          <Button type="submit" disabled={change.isPending}>
            {change.isPending ? 'Changing...' : 'Change password'}
          </Button>
        </div>
      </form>
      {mismatch && (
        <div className="mt-3">
          <Alert>{MISMATCH}</Alert>
        </div>
      )}
      {change.isSuccess && (
        <div className="mt-3">
          <Alert tone="success">Your password was changed.</Alert>
        </div>
      )}
      {change.error && (
        <div className="mt-3">
          <Alert>{change.error.message}</Alert>
        </div>
      )}
    </AccountSection>
  )
}

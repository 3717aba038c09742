import type { AccountSummary } from '@sprout/protocol/api/account.ts'
import { EMAIL_MAX } from '@sprout/protocol/api/input-limits.ts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { TextField } from '../../components/ui/text-field.tsx'
import { apiRequest } from '../../lib/api-client.ts'
import { authClient, unwrapAuthResult } from '../../lib/auth-client.ts'
import { sessionQueryKey } from '../../lib/session-query.ts'
import { accountQueryKey } from './account-queries.ts'
import { AccountSection } from './account-section.tsx'

/** docs/product/auth.md "Account": when the new address applies, said before the user types. */
function changeRule(account: AccountSummary): string {
  if (!account.mailConfigured && account.emailVerified) {
    return 'Your address is confirmed, and mail is not configured: it cannot change until an admin sets up mail.'
  }
  if (!account.mailConfigured) return 'Mail is not configured, so the new address applies at once.'
  if (account.emailVerified) {
    return 'We send a link to the new address; the change applies once you open it.'
  }
  return 'The new address applies at once; we send it a link to confirm it.'
}

/** What happened, read back from the server (better-auth answers the same for a taken address). */
function outcome(newEmail: string, current: AccountSummary): string {
  if (current.email === newEmail) return `Your email is now ${newEmail}.`
  if (current.mailConfigured) return `Check ${newEmail} for a link to confirm the change.`
  return `${newEmail} cannot be used.`
}

export function EmailSection({ account }: { account: AccountSummary }) {
  const queryClient = useQueryClient()
  const [newEmail, setNewEmail] = useState('')
  const blocked = !account.mailConfigured && account.emailVerified
  const change = useMutation({
    mutationFn: async (email: string) => {
      await unwrapAuthResult(authClient.changeEmail({ newEmail: email, callbackURL: '/account' }))
      const current = await apiRequest<AccountSummary>('/api/account', { organizationId: null })
      return outcome(email, current)
    },
    onSuccess: async () => {
      setNewEmail('')
      await queryClient.invalidateQueries({ queryKey: accountQueryKey })
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey })
    },
  })
  const trimmed = newEmail.trim().toLowerCase()
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (trimmed && !blocked) change.mutate(trimmed)
  }
  return (
    <AccountSection
      title="Email"
      description={
        <>
          You sign in as <span className="font-medium text-zinc-800">{account.email}</span>.
        </>
      }
    >
      <form onSubmit={onSubmit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <TextField
          label="New email"
          name="newEmail"
          type="email"
          autoComplete="email"
          value={newEmail}
          onChange={(event) => setNewEmail(event.target.value)}
          maxLength={EMAIL_MAX}
          disabled={blocked}
          className="flex-1"
          required
        />
        <Button
          type="submit"
          disabled={blocked || change.isPending || !trimmed || trimmed === account.email}
        >
          {change.isPending ? 'Changing...' : 'Change email'}
        </Button>
      </form>
      <p className="mt-2 text-xs text-zinc-500">{changeRule(account)}</p>
      {change.data && (
        <div className="mt-3">
          <Alert tone="info">{change.data}</Alert>
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

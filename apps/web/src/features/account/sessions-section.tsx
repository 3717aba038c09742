import type { AccountSession } from '@sprout/protocol/api/account.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert } from '../../components/ui/alert.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { apiRequest } from '../../lib/api-client.ts'
import { authClient, unwrapAuthResult } from '../../lib/auth-client.ts'
import { accountSessionsQueryOptions } from './account-queries.ts'
import { AccountSection } from './account-section.tsx'

const dateTime = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })

function SessionRow({
  session,
  busy,
  onSignOut,
}: {
  session: AccountSession
  busy: boolean
  onSignOut: () => void
}) {
  return (
    <li className="flex items-center justify-between gap-3 py-3" aria-label={session.device}>
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-sm font-medium text-zinc-900">{session.device}</span>
          {session.current && <Badge tone="accent">This device</Badge>}
        </div>
        <p className="mt-0.5 text-xs text-zinc-500">
          {session.address ? `${session.address} · ` : ''}Last active{' '}
          {dateTime(session.lastActiveAt)} · Signed in {dateTime(session.createdAt)}
        </p>
      </div>
      {!session.current && (
        <Button variant="ghost" size="sm" disabled={busy} onClick={onSignOut}>
          Sign out
        </Button>
      )}
    </li>
  )
}

export function SessionsSection() {
  const queryClient = useQueryClient()
  const sessions = useQuery(accountSessionsQueryOptions)
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: accountSessionsQueryOptions.queryKey })
  const signOutOthers = useMutation({
    mutationFn: () => unwrapAuthResult(authClient.revokeOtherSessions()),
    onSuccess: refresh,
  })
  const signOutOne = useMutation({
    mutationFn: (sessionId: string) =>
      apiRequest(`/api/account/sessions/${encodeURIComponent(sessionId)}`, {
        method: 'DELETE',
        organizationId: null,
      }),
    onSuccess: refresh,
  })
  const list = sessions.data ?? []
  const hasOthers = list.some((session) => !session.current)
  const error = sessions.error ?? signOutOthers.error ?? signOutOne.error
  return (
    <AccountSection title="Sessions" description="Where you are signed in.">
      {sessions.isPending && (
        <div role="status" className="flex items-center gap-2 text-sm text-zinc-500">
          <Spinner className="size-4" />
          Loading sessions...
        </div>
      )}
      {list.length > 0 && (
        <ul aria-label="Your sessions" className="divide-y divide-zinc-100">
          {list.map((session) => (
            <SessionRow
              key={session.id}
              session={session}
              busy={signOutOne.isPending || signOutOthers.isPending}
              onSignOut={() => signOutOne.mutate(session.id)}
            />
          ))}
        </ul>
      )}
      {sessions.isSuccess && !hasOthers && (
        <p className="mt-2 text-sm text-zinc-500">No other sessions.</p>
      )}
      {signOutOthers.isSuccess && !hasOthers && (
        <div className="mt-3">
          <Alert tone="success">Other sessions were signed out.</Alert>
        </div>
      )}
      {error && (
        <div className="mt-3">
          <Alert>{error.message}</Alert>
        </div>
      )}
      {hasOthers && (
        <div className="mt-3">
          <Button
            variant="secondary"
            disabled={signOutOthers.isPending}
            onClick={() => signOutOthers.mutate()}
          >
            {signOutOthers.isPending ? 'Signing out...' : 'Sign out other sessions'}
          </Button>
        </div>
      )}
    </AccountSection>
  )
}

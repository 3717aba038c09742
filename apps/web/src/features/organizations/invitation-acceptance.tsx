import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useRouter } from '@tanstack/react-router'
import { PageContainer } from '../../components/layout/page-container.tsx'
import { Alert } from '../../components/ui/alert.tsx'
import { Avatar } from '../../components/ui/avatar.tsx'
import { Button, buttonClasses } from '../../components/ui/button.tsx'
import { Card } from '../../components/ui/card.tsx'
import { CenteredSpinner } from '../../components/ui/spinner.tsx'
import { authClient, unwrapAuthResult } from '../../lib/auth-client.ts'
import { setCurrentOrganizationId } from '../../lib/current-organization.ts'
import type { SessionUser } from '../../lib/session-query.ts'
import { setSelectedPersonal } from './personal-mode.ts'
import { roleLabel } from './role-label.ts'

type InvitationDetails = {
  id: string
  email: string
  role: string
  organizationName: string
  inviterEmail: string
}

export function InvitationAcceptance({
  invitationId,
  user,
}: {
  invitationId: string
  user: SessionUser
}) {
  const queryClient = useQueryClient()
  const router = useRouter()
  const invitation = useQuery({
    queryKey: ['invitation', invitationId],
    queryFn: async () =>
      (await unwrapAuthResult(
        authClient.organization.getInvitation({ query: { id: invitationId } }),
      )) as InvitationDetails,
    retry: false,
  })
  const respond = useMutation({
    mutationFn: async (answer: 'accept' | 'decline') => {
      if (answer === 'decline') {
        await unwrapAuthResult(authClient.organization.rejectInvitation({ invitationId }))
        await router.navigate({ to: '/organizations' })
        return
      }
      // Accepting makes the organization the session's active one on the server.
      await unwrapAuthResult(authClient.organization.acceptInvitation({ invitationId }))
      setSelectedPersonal(user.id, false)
      setCurrentOrganizationId(undefined)
      // An accepted invitation can no longer be read: asking again would only answer 400.
      await queryClient.resetQueries({ predicate: (query) => query.queryKey[0] !== 'invitation' })
      await router.invalidate()
      await router.navigate({ to: '/' })
    },
  })

  if (invitation.isPending) return <CenteredSpinner label="Loading invitation..." />

  return (
    <PageContainer narrow>
      <Card className="mx-auto flex max-w-md flex-col items-center gap-4 p-8 text-center">
        {invitation.isError ? (
          <>
            <h1 className="text-xl font-semibold text-zinc-900">Invitation unavailable</h1>
            <Alert>{invitation.error.message}</Alert>
            <p className="text-sm text-zinc-500">
              Signed in as {user.email}. An invitation can only be accepted by the person it was
              sent to, and only once.
            </p>
            <Link to="/" className={buttonClasses('secondary')}>
              Return to Home
            </Link>
          </>
        ) : (
          <>
            <Avatar name={invitation.data.organizationName} shape="square" className="size-12" />
            <h1 className="text-xl font-semibold text-zinc-900">
              Join {invitation.data.organizationName}
            </h1>
            <p className="text-sm text-zinc-500">
              {invitation.data.inviterEmail} invited you to join as{' '}
              {roleLabel(invitation.data.role).toLowerCase()}.
            </p>
            {respond.error && <Alert>{respond.error.message}</Alert>}
            <div className="flex gap-2">
              <Button
                variant="secondary"
                disabled={respond.isPending}
                onClick={() => respond.mutate('decline')}
              >
                Decline
              </Button>
              <Button disabled={respond.isPending} onClick={() => respond.mutate('accept')}>
                {respond.isPending ? 'Joining...' : 'Accept invitation'}
              </Button>
            </div>
          </>
        )}
      </Card>
    </PageContainer>
  )
}

import { createFileRoute } from '@tanstack/react-router'
import { InvitationAcceptance } from '../features/organizations/invitation-acceptance.tsx'

export const Route = createFileRoute('/_authenticated/invitations/$id')({
  component: InvitationRoute,
})

function InvitationRoute() {
  const { id } = Route.useParams()
  const { session } = Route.useRouteContext()
  return <InvitationAcceptance invitationId={id} user={session.user} />
}

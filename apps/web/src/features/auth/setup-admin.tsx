import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useRouter } from '@tanstack/react-router'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { apiRequest } from '../../lib/api-client.ts'
import { type Session, sessionQueryOptions } from '../../lib/session-query.ts'
import { authTexts } from './auth-texts.ts'
import { SignUpForm } from './sign-up-form.tsx'

type SetupStatus = { adminExists: boolean; valid: boolean }

/**
 * /setup?code=…: the link a fresh install prints hands it to its owner (docs/product/auth.md
 * "The first admin"): sign up, or use the account already signed in, and become the admin.
 */
export function SetupAdmin({
  code,
  onClaimed,
}: {
  code: string
  /** The new admin's session, before the admin screen opens. */
  onClaimed: (session: Session) => void
}) {
  const router = useRouter()
  const queryClient = useQueryClient()
  const status = useQuery({
    queryKey: ['setup-status', code],
    queryFn: () =>
      apiRequest<SetupStatus>(`/api/setup?code=${encodeURIComponent(code)}`, {
        organizationId: null,
      }),
  })
  const session = useQuery(sessionQueryOptions)
  const openAdmin = async (admin: Session) => {
    onClaimed(admin)
    await queryClient.invalidateQueries({ queryKey: ['admin-status'] })
    await router.navigate({ to: '/admin' })
  }
  const claim = useMutation({
    mutationFn: async (current: Session) => {
      await apiRequest('/api/setup', { method: 'POST', body: { code }, organizationId: null })
      await openAdmin(current)
    },
  })

  if (status.isPending || session.isPending) {
    return (
      <div className="flex justify-center py-4">
        <Spinner />
      </div>
    )
  }
  if (status.data?.adminExists) return <Alert>{authTexts.setupAdminExists}</Alert>
  if (!status.data?.valid) return <Alert>{status.error?.message ?? authTexts.setupInvalid}</Alert>
  const current = session.data
  if (current) {
    return (
      <div className="flex flex-col gap-4">
        {claim.error && <Alert>{claim.error.message}</Alert>}
        <Button type="button" disabled={claim.isPending} onClick={() => claim.mutate(current)}>
          {authTexts.setupClaim(current.user.email)}
        </Button>
      </div>
    )
  }
  // Signing up with the code makes the account the admin on the server, before any session:
  // with email verification the mailed link signs it in later and opens /admin.
  return <SignUpForm setupCode={code} verifiedPath="/admin" onSignedUp={openAdmin} />
}

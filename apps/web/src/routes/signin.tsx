import { createFileRoute, useRouter } from '@tanstack/react-router'
import { Alert } from '../components/ui/alert.tsx'
import { AuthCard } from '../features/auth/auth-card.tsx'
import { AuthSwitchLink } from '../features/auth/auth-switch-link.tsx'
import { redirectIfSignedIn } from '../features/auth/redirect-if-signed-in.ts'
import { safeRedirectTarget } from '../features/auth/redirect-target.ts'
import { SignInForm } from '../features/auth/sign-in-form.tsx'
import { SESSION_EXPIRED_MESSAGE } from '../lib/api-error.ts'

type SignInSearch = { redirect?: string; expired?: boolean }

export const Route = createFileRoute('/signin')({
  validateSearch: (search: Record<string, unknown>): SignInSearch => ({
    redirect: safeRedirectTarget(search.redirect),
    expired: search.expired === true || search.expired === 'true' ? true : undefined,
  }),
  beforeLoad: redirectIfSignedIn,
  component: SignInPage,
})

function SignInPage() {
  const { redirect: redirectTo, expired } = Route.useSearch()
  const router = useRouter()
  return (
    <AuthCard
      title="Sign in to Sprout"
      subtitle="Welcome back. Pick up where you left off."
      footer={
        <AuthSwitchLink question="Don't have an account?" to="/signup" redirect={redirectTo}>
          Sign up
        </AuthSwitchLink>
      }
    >
      {expired && (
        <div className="mb-4">
          <Alert tone="info">{SESSION_EXPIRED_MESSAGE}</Alert>
        </div>
      )}
      <SignInForm
        onSignedIn={async () => {
          await router.navigate({ href: redirectTo ?? '/' })
        }}
      />
    </AuthCard>
  )
}

import { createFileRoute, useRouter } from '@tanstack/react-router'
import { Alert } from '../components/ui/alert.tsx'
import { AuthCard } from '../features/auth/auth-card.tsx'
import { AuthSwitchLink } from '../features/auth/auth-switch-link.tsx'
import { authTexts } from '../features/auth/auth-texts.ts'
import { redirectIfSignedIn } from '../features/auth/redirect-if-signed-in.ts'
import { safeRedirectTarget } from '../features/auth/redirect-target.ts'
import { SignInForm } from '../features/auth/sign-in-form.tsx'
import { SingleSignOnButton } from '../features/auth/single-sign-on-button.tsx'
import { SESSION_EXPIRED_MESSAGE } from '../lib/api-error.ts'
import { useSignInOptions } from '../lib/sign-in-options-query.ts'

type SignInSearch = { redirect?: string; expired?: boolean; reset?: boolean }

export const Route = createFileRoute('/signin')({
  validateSearch: (search: Record<string, unknown>): SignInSearch => ({
    redirect: safeRedirectTarget(search.redirect),
    expired: search.expired === true || search.expired === 'true' ? true : undefined,
    reset: search.reset === true || search.reset === 'true' ? true : undefined,
  }),
  beforeLoad: redirectIfSignedIn,
  component: SignInPage,
})

function SignInPage() {
  const { redirect: redirectTo, expired, reset } = Route.useSearch()
  const router = useRouter()
  const options = useSignInOptions()
  const signUpClosed = options.data?.signUp === 'closed'
  return (
    <AuthCard
      title="Sign in to Sprout"
      subtitle="Welcome back. Pick up where you left off."
      footer={
        signUpClosed ? null : (
          <AuthSwitchLink question="Don't have an account?" to="/signup" redirect={redirectTo}>
            Sign up
          </AuthSwitchLink>
        )
      }
    >
      {reset && (
        <div className="mb-4">
          <Alert tone="success">{authTexts.resetDone}</Alert>
        </div>
      )}
      {expired && (
        <div className="mb-4">
          <Alert tone="info">{SESSION_EXPIRED_MESSAGE}</Alert>
        </div>
      )}
      <SingleSignOnButton redirectTo={redirectTo} />
      {!options.data?.ssoOnly && (
        <SignInForm
          onSignedIn={async () => {
            await router.navigate({ href: redirectTo ?? '/' })
          }}
        />
      )}
    </AuthCard>
  )
}

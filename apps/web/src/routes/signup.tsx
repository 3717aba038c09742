import { createFileRoute, useRouter } from '@tanstack/react-router'
import { Alert } from '../components/ui/alert.tsx'
import { AuthCard } from '../features/auth/auth-card.tsx'
import { AuthSwitchLink } from '../features/auth/auth-switch-link.tsx'
import { redirectIfSignedIn } from '../features/auth/redirect-if-signed-in.ts'
import { safeRedirectTarget } from '../features/auth/redirect-target.ts'
import { SignUpForm } from '../features/auth/sign-up-form.tsx'
import { signUpRuleText } from '../features/auth/sign-up-rule-text.ts'
import { SingleSignOnButton } from '../features/auth/single-sign-on-button.tsx'
import { setSelectedPersonal } from '../features/organizations/personal-mode.ts'
import { useSignInOptions } from '../lib/sign-in-options-query.ts'

type SignUpSearch = { redirect?: string }

export const Route = createFileRoute('/signup')({
  validateSearch: (search: Record<string, unknown>): SignUpSearch => ({
    redirect: safeRedirectTarget(search.redirect),
  }),
  beforeLoad: redirectIfSignedIn,
  component: SignUpPage,
})

function SignUpPage() {
  const { redirect: redirectTo } = Route.useSearch()
  const router = useRouter()
  const options = useSignInOptions()
  const rule = options.data ? signUpRuleText(options.data) : undefined
  return (
    <AuthCard
      title="Create your account"
      subtitle="Describe an app, pick a model, and watch it being built."
      footer={
        <AuthSwitchLink question="Already have an account?" to="/signin" redirect={redirectTo}>
          Sign in
        </AuthSwitchLink>
      }
    >
      {rule && (
        <div className="mb-4">
          <Alert tone="info">{rule}</Alert>
        </div>
      )}
      <SingleSignOnButton redirectTo={redirectTo} />
      {!options.data?.ssoOnly && (
        <SignUpForm
          verifiedPath={redirectTo}
          onSignedUp={async (session) => {
            // A new account starts in its personal organization instead of the chooser.
            setSelectedPersonal(session.user.id, true)
            await router.navigate({ href: redirectTo ?? '/' })
          }}
        />
      )}
    </AuthCard>
  )
}

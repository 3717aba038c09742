import { createFileRoute, useRouter } from '@tanstack/react-router'
import { AuthCard } from '../features/auth/auth-card.tsx'
import { AuthSwitchLink } from '../features/auth/auth-switch-link.tsx'
import { redirectIfSignedIn } from '../features/auth/redirect-if-signed-in.ts'
import { safeRedirectTarget } from '../features/auth/redirect-target.ts'
import { SignUpForm } from '../features/auth/sign-up-form.tsx'
import { setSelectedPersonal } from '../features/organizations/personal-mode.ts'

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
      <SignUpForm
        onSignedUp={async (session) => {
          // A new account starts in its personal organization instead of the chooser.
          setSelectedPersonal(session.user.id, true)
          await router.navigate({ href: redirectTo ?? '/' })
        }}
      />
    </AuthCard>
  )
}

import { createFileRoute, Link, redirect, useRouter } from '@tanstack/react-router'
import { AuthCard } from '../features/auth/auth-card.tsx'
import { safeRedirectTarget } from '../features/auth/redirect-target.ts'
import { SignUpForm } from '../features/auth/sign-up-form.tsx'
import { setSelectedPersonal } from '../features/organizations/personal-mode.ts'
import { sessionQueryOptions } from '../lib/session-query.ts'

type SignUpSearch = { redirect?: string }

export const Route = createFileRoute('/signup')({
  validateSearch: (search: Record<string, unknown>): SignUpSearch => ({
    redirect: safeRedirectTarget(search.redirect),
  }),
  beforeLoad: async ({ context }) => {
    const session = await context.queryClient.ensureQueryData(sessionQueryOptions)
    if (session) throw redirect({ to: '/' })
  },
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
        <>
          Already have an account?{' '}
          <Link
            to="/signin"
            search={{ redirect: redirectTo }}
            className="font-medium text-accent-700 hover:underline"
          >
            Sign in
          </Link>
        </>
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

import { createFileRoute, useRouter } from '@tanstack/react-router'
import { AuthCard } from '../features/auth/auth-card.tsx'
import { AuthSwitchLink } from '../features/auth/auth-switch-link.tsx'
import { authTexts } from '../features/auth/auth-texts.ts'
import { ResetPasswordForm } from '../features/auth/reset-password-form.tsx'

type ResetSearch = { token?: string }

export const Route = createFileRoute('/reset-password')({
  validateSearch: (search: Record<string, unknown>): ResetSearch => ({
    token: typeof search.token === 'string' ? search.token : undefined,
  }),
  component: ResetPasswordPage,
})

function ResetPasswordPage() {
  const { token } = Route.useSearch()
  const router = useRouter()
  return (
    <AuthCard
      title={authTexts.resetTitle}
      subtitle={authTexts.resetSubtitle}
      footer={
        <AuthSwitchLink question="Remembered it?" to="/signin" redirect={undefined}>
          Sign in
        </AuthSwitchLink>
      }
    >
      <ResetPasswordForm
        token={token ?? ''}
        onDone={() => router.navigate({ to: '/signin', search: { reset: true } })}
      />
    </AuthCard>
  )
}

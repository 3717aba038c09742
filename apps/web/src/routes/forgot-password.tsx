import { createFileRoute } from '@tanstack/react-router'
import { Spinner } from '../components/ui/spinner.tsx'
import { AuthCard } from '../features/auth/auth-card.tsx'
import { AuthSwitchLink } from '../features/auth/auth-switch-link.tsx'
import { authTexts } from '../features/auth/auth-texts.ts'
import { ForgotPasswordForm } from '../features/auth/forgot-password-form.tsx'
import { redirectIfSignedIn } from '../features/auth/redirect-if-signed-in.ts'
import { useSignInOptions } from '../lib/sign-in-options-query.ts'

export const Route = createFileRoute('/forgot-password')({
  beforeLoad: redirectIfSignedIn,
  component: ForgotPasswordPage,
})

function ForgotPasswordPage() {
  const options = useSignInOptions()
  return (
    <AuthCard
      title={authTexts.forgotTitle}
      subtitle={authTexts.forgotSubtitle}
      footer={
        <AuthSwitchLink question="Remembered it?" to="/signin" redirect={undefined}>
          Sign in
        </AuthSwitchLink>
      }
    >
      {options.data ? (
        <ForgotPasswordForm mailConfigured={options.data.mail} />
      ) : (
        <div className="flex justify-center py-4">
          <Spinner />
        </div>
      )}
    </AuthCard>
  )
}

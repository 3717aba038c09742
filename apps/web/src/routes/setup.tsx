import { createFileRoute } from '@tanstack/react-router'
import { AuthCard } from '../features/auth/auth-card.tsx'
import { authTexts } from '../features/auth/auth-texts.ts'
import { SetupAdmin } from '../features/auth/setup-admin.tsx'
import { setSelectedPersonal } from '../features/organizations/personal-mode.ts'

type SetupSearch = { code?: string }

export const Route = createFileRoute('/setup')({
  validateSearch: (search: Record<string, unknown>): SetupSearch => ({
    code: typeof search.code === 'string' ? search.code : undefined,
  }),
  component: SetupPage,
})

function SetupPage() {
  const { code } = Route.useSearch()
  return (
    <AuthCard title={authTexts.setupTitle} subtitle={authTexts.setupSubtitle} footer={null}>
      <SetupAdmin
        code={code ?? ''}
        // Like a new account at sign-up, the admin starts in their personal organization.
        onClaimed={(session) => setSelectedPersonal(session.user.id, true)}
      />
    </AuthCard>
  )
}

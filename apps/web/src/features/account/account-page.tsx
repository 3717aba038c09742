import { useQuery } from '@tanstack/react-query'
import { PageContainer } from '../../components/layout/page-container.tsx'
import { PageHeader } from '../../components/layout/page-header.tsx'
import { Alert } from '../../components/ui/alert.tsx'
import { CenteredSpinner } from '../../components/ui/spinner.tsx'
import { accountSummaryQueryOptions } from './account-queries.ts'
import { DeleteAccountSection } from './delete-account-section.tsx'
import { EmailSection } from './email-section.tsx'
import { PasswordSection } from './password-section.tsx'
import { ProfileSection } from './profile-section.tsx'
import { SessionsSection } from './sessions-section.tsx'

/** docs/product/auth.md "Account": the signed-in user's own settings. */
export function AccountPage() {
  const account = useQuery(accountSummaryQueryOptions)
  if (account.isPending) return <CenteredSpinner label="Loading your account..." />
  return (
    <PageContainer narrow>
      <PageHeader title="Account" subtitle="Your profile, sign-in and sessions." />
      {account.error && <Alert>{account.error.message}</Alert>}
      {account.data && (
        <div className="flex flex-col gap-6">
          <ProfileSection name={account.data.name} />
          <EmailSection account={account.data} />
          <PasswordSection hasPassword={account.data.hasPassword} />
          <SessionsSection />
          <DeleteAccountSection email={account.data.email} />
        </div>
      )}
    </PageContainer>
  )
}

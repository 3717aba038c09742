import { createFileRoute, Outlet } from '@tanstack/react-router'
import { PageContainer } from '../components/layout/page-container.tsx'
import { PageHeader } from '../components/layout/page-header.tsx'
import { Alert } from '../components/ui/alert.tsx'
import { CenteredSpinner } from '../components/ui/spinner.tsx'
import { AccessRestricted } from '../features/admin/access-restricted.tsx'
import { AdminTabs } from '../features/admin/admin-tabs.tsx'
import { useAdminStatus } from '../features/admin/use-admin-status.ts'

/** The admin panel's frame: admins see the tabs, everybody else 'Access Restricted'. */
export const Route = createFileRoute('/_authenticated/admin')({
  component: AdminLayout,
})

function AdminLayout() {
  const status = useAdminStatus()
  if (status.isPending) return <CenteredSpinner label="Checking access..." />
  return (
    <PageContainer>
      {status.isError ? (
        <Alert>{status.error.message}</Alert>
      ) : status.data.isAdmin ? (
        <>
          <PageHeader
            title="Admin"
            subtitle="Integrations, evaluations, the devbox pool, users, mail, the audit log and access."
          />
          <AdminTabs />
          <Outlet />
        </>
      ) : (
        <AccessRestricted />
      )}
    </PageContainer>
  )
}

import { useQueryClient } from '@tanstack/react-query'
import { useAdminStatus } from '../features/admin/use-admin-status.ts'
import { applicationsQueryKey } from '../features/applications/application-queries.ts'
import { useUpdateApplicationAccess } from '../features/applications/use-update-application-access.ts'
import { CheckStatus } from '../features/checks/check-status.tsx'
import { AppAccessButton } from '../features/deploy/app-access-button.tsx'
import type { AppAccess } from '../features/deploy/app-access-dialog.tsx'
import { DeployButton } from '../features/deploy/deploy-button.tsx'
import { useOrganization } from '../features/organizations/use-organization.ts'
import { DownloadButton } from '../features/take-out/download-button.tsx'
import { PushButton } from '../features/take-out/push-button.tsx'
import { VaultButton } from '../features/vault/vault-button.tsx'
import { HistoryButton } from '../features/versions/history-button.tsx'
import type { HistoryPane } from '../features/versions/use-history-pane.tsx'

type PreviewActionsProps = {
  applicationId: string
  deployed: boolean
  /** Who may open the deploy, and what the user may set it to. */
  access: AppAccess
  history: HistoryPane
  agentRunning: boolean
}

/** The preview toolbar's actions, the app's last check first (docs/product/checks.md). */
export function PreviewActions({
  applicationId,
  deployed,
  access,
  history,
  agentRunning,
}: PreviewActionsProps) {
  const queryClient = useQueryClient()
  const admin = useAdminStatus()
  const organization = useOrganization()
  const updateAccess = useUpdateApplicationAccess(applicationId)
  return (
    <>
      <CheckStatus applicationId={applicationId} agentRunning={agentRunning} />
      <HistoryButton open={history.open} onToggle={history.toggle} />
      <VaultButton applicationId={applicationId} />
      <DownloadButton applicationId={applicationId} />
      <PushButton applicationId={applicationId} />
      <AppAccessButton
        access={access}
        organizationName={organization.name}
        onSave={updateAccess.mutateAsync}
      />
      {admin.data?.isAdmin && (
        <DeployButton
          applicationId={applicationId}
          deployed={deployed}
          onDeployed={() => void queryClient.invalidateQueries({ queryKey: applicationsQueryKey })}
        />
      )}
    </>
  )
}

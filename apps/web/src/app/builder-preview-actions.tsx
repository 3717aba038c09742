import { useQueryClient } from '@tanstack/react-query'
import { useAdminStatus } from '../features/admin/use-admin-status.ts'
import { applicationsQueryKey } from '../features/applications/application-queries.ts'
import { CheckStatus } from '../features/checks/check-status.tsx'
import { DeployButton } from '../features/deploy/deploy-button.tsx'
import { DownloadButton } from '../features/take-out/download-button.tsx'
import { PushButton } from '../features/take-out/push-button.tsx'
import { VaultButton } from '../features/vault/vault-button.tsx'
import { HistoryButton } from '../features/versions/history-button.tsx'
import type { HistoryPane } from '../features/versions/use-history-pane.tsx'

type PreviewActionsProps = {
  applicationId: string
  deployed: boolean
  history: HistoryPane
  agentRunning: boolean
}

/** The preview toolbar's actions, the app's last check first (docs/product/checks.md). */
export function PreviewActions({
  applicationId,
  deployed,
  history,
  agentRunning,
}: PreviewActionsProps) {
  const queryClient = useQueryClient()
  const admin = useAdminStatus()
  return (
    <>
      <CheckStatus applicationId={applicationId} agentRunning={agentRunning} />
      <HistoryButton open={history.open} onToggle={history.toggle} />
      <VaultButton applicationId={applicationId} />
      <DownloadButton applicationId={applicationId} />
      <PushButton applicationId={applicationId} />
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

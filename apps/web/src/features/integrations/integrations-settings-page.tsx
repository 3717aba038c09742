import { INTEGRATION_ERROR_MESSAGES, type Integration } from '@sprout/protocol/api/integrations.ts'
import { useEffect, useState } from 'react'
import { PageContainer } from '../../components/layout/page-container.tsx'
import { PageHeader } from '../../components/layout/page-header.tsx'
import { Alert } from '../../components/ui/alert.tsx'
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx'
import { EmptyState } from '../../components/ui/empty-state.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { errorMessage } from '../../lib/error-message.ts'
import { integrationToken } from './integration-api.ts'
import { IntegrationCard } from './integration-card.tsx'
import { sortByServiceName } from './integration-display.ts'
import { pickSpreadsheets } from './spreadsheet-picker.ts'
import { useIntegrations } from './use-integrations.ts'

/** Where the OAuth callback sent the user back from (the query it put on /settings). */
export type CallbackOutcome = { connected?: string; error?: string }

export const PICKER_BANNER_MS = 5000

type IntegrationsSettingsPageProps = {
  organizationId: string
  callback?: CallbackOutcome
  /** The Picker API's script for tests; else the server's (GOOGLE_PICKER_SCRIPT_URL). */
  pickerScriptUrl?: string | null
}

const nameOf = (integration: Integration) => integration.display_name || integration.service_name

/** docs/product/integrations.md "Settings screen": connect the organization's integrations. */
export function IntegrationsSettingsPage({
  organizationId,
  callback,
  pickerScriptUrl,
}: IntegrationsSettingsPageProps) {
  const { list, connect, disconnect } = useIntegrations(organizationId)
  const [revoking, setRevoking] = useState<Integration>()
  const [granted, setGranted] = useState<number>()

  useEffect(() => {
    if (granted === undefined) return
    const timer = setTimeout(() => setGranted(undefined), PICKER_BANNER_MS)
    return () => clearTimeout(timer)
  }, [granted])

  const selectFiles = async (integration: Integration) => {
    let accessToken: string
    try {
      accessToken = (await integrationToken(integration.service_name)).access_token
    } catch {
      window.alert(INTEGRATION_ERROR_MESSAGES.tokenFailed)
      return
    }
    try {
      const count = await pickSpreadsheets({
        accessToken,
        clientId: integration.client_id,
        scriptUrl: pickerScriptUrl ?? integration.picker_script_url,
      })
      if (count > 0) setGranted(count)
    } catch (error) {
      window.alert(errorMessage(error))
    }
  }

  const confirmRevoke = () => {
    if (!revoking) return
    disconnect.mutate(revoking.service_name, {
      onSettled: () => setRevoking(undefined),
      onError: () => window.alert(INTEGRATION_ERROR_MESSAGES.revokeFailed),
    })
  }

  const connectedName =
    callback?.connected &&
    (list.data?.find((item) => item.service_name === callback.connected)?.display_name ??
      callback.connected)

  return (
    <PageContainer>
      <PageHeader
        title="Settings"
        subtitle="Integrations: connect the services your applications use."
      />
      <div className="mb-4 flex flex-col gap-3 empty:hidden">
        {connectedName && <Alert tone="success">{`${connectedName} is connected.`}</Alert>}
        {callback?.error && <Alert>{callback.error}</Alert>}
        {connect.isError && <Alert>{connect.error.message}</Alert>}
        {granted !== undefined && (
          <Alert tone="success">{`Successfully granted access to ${granted} spreadsheet(s)`}</Alert>
        )}
      </div>
      {list.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner className="size-6" />
        </div>
      ) : list.isError ? (
        <EmptyState
          title="Failed to load integrations"
          description="Please try refreshing the page."
        />
      ) : list.data.length === 0 ? (
        <EmptyState
          title="No integrations available"
          description="An administrator adds integrations in the admin panel."
        />
      ) : (
        <ul aria-label="Integrations" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {sortByServiceName(list.data).map((integration) => (
            <IntegrationCard
              key={integration.service_name}
              integration={integration}
              busy={
                (connect.isPending || connect.isSuccess) &&
                connect.variables === integration.service_name
              }
              onConnect={() => connect.mutate(integration.service_name)}
              onDisconnect={() => setRevoking(integration)}
              onSelectFiles={() => void selectFiles(integration)}
            />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={revoking !== undefined}
        title="Disconnect"
        message={`Are you sure you want to revoke access to ${revoking ? nameOf(revoking) : ''}?`}
        confirmLabel="Disconnect"
        busyLabel="Disconnecting..."
        busy={disconnect.isPending}
        onConfirm={confirmRevoke}
        onCancel={() => setRevoking(undefined)}
      />
    </PageContainer>
  )
}

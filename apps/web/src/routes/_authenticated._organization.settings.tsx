import { OAUTH_CALLBACK_QUERY } from '@sprout/protocol/api/integrations.ts'
import { createFileRoute } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { PageContainer } from '../components/layout/page-container.tsx'
import { OrganizationAuditSection } from '../features/audit/organization-audit-section.tsx'
import { CheckSettingsSection } from '../features/checks/check-settings-section.tsx'
import {
  type CallbackOutcome,
  IntegrationsSettingsPage,
} from '../features/integrations/integrations-settings-page.tsx'
import { useCanManageOrganization } from '../features/organizations/use-can-manage-organization.ts'
import { useOrganization } from '../features/organizations/use-organization.ts'

type SettingsSearch = { connected?: string; integration_error?: string }

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined)

export const Route = createFileRoute('/_authenticated/_organization/settings')({
  validateSearch: (search: Record<string, unknown>): SettingsSearch => ({
    connected: text(search[OAUTH_CALLBACK_QUERY.connected]),
    integration_error: text(search[OAUTH_CALLBACK_QUERY.error]),
  }),
  component: SettingsRoute,
})

/**
 * The OAuth callback lands here with `connected` or `integration_error`
 * (docs/product/integrations.md "Connect"): the message is kept and the URL cleaned, so a
 * reload does not show it again.
 */
function SettingsRoute() {
  const organization = useOrganization()
  const canManage = useCanManageOrganization(organization)
  const search = Route.useSearch()
  const navigate = Route.useNavigate()
  const [callback] = useState<CallbackOutcome | undefined>(() =>
    search.connected || search.integration_error
      ? { connected: search.connected, error: search.integration_error }
      : undefined,
  )
  const hasCallbackQuery = Boolean(search.connected || search.integration_error)
  useEffect(() => {
    if (hasCallbackQuery) void navigate({ search: {}, replace: true })
  }, [hasCallbackQuery, navigate])
  return (
    <>
      <IntegrationsSettingsPage organizationId={organization.organizationId} callback={callback} />
      <PageContainer>
        <CheckSettingsSection organizationId={organization.organizationId} canEdit={canManage} />
        <OrganizationAuditSection
          organizationId={organization.organizationId}
          canRead={canManage}
        />
      </PageContainer>
    </>
  )
}

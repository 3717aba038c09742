import { createFileRoute } from '@tanstack/react-router'
import { IntegrationsAdminPanel } from '../features/integrations/integrations-admin-panel.tsx'

export const Route = createFileRoute('/_authenticated/admin/')({
  component: IntegrationsAdminPanel,
})

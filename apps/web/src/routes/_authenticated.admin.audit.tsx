import { createFileRoute } from '@tanstack/react-router'
import { AdminAuditPanel } from '../features/audit/admin-audit-panel.tsx'

export const Route = createFileRoute('/_authenticated/admin/audit')({
  component: AdminAuditPanel,
})

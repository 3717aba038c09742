import { createFileRoute } from '@tanstack/react-router'
import { AdminPlaceholder } from '../features/admin/admin-placeholder.tsx'

export const Route = createFileRoute('/_authenticated/admin/')({
  component: () => (
    <AdminPlaceholder
      title="Integrations"
      description="Add and edit the OAuth integrations your users can connect."
    />
  ),
})

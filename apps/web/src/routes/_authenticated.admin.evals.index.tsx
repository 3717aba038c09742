import { createFileRoute } from '@tanstack/react-router'
import { AdminPlaceholder } from '../features/admin/admin-placeholder.tsx'

export const Route = createFileRoute('/_authenticated/admin/evals/')({
  component: () => (
    <AdminPlaceholder
      title="Conversation Evaluations"
      description="Select conversations and have a model evaluate them."
    />
  ),
})

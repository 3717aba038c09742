import { createFileRoute } from '@tanstack/react-router'
import { PlaceholderPage } from '../components/layout/placeholder-page.tsx'

export const Route = createFileRoute('/_authenticated/_organization/errors')({
  component: () => <PlaceholderPage title="Error Monitoring" />,
})

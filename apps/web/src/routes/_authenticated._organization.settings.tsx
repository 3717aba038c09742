import { createFileRoute } from '@tanstack/react-router'
import { PlaceholderPage } from '../components/layout/placeholder-page.tsx'

export const Route = createFileRoute('/_authenticated/_organization/settings')({
  component: () => (
    <PlaceholderPage
      title="Settings"
      subtitle="Integrations: connect the services your applications use."
    />
  ),
})

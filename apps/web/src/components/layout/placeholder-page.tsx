import type { ReactNode } from 'react'
import { EmptyState } from '../ui/empty-state.tsx'
import { PageContainer } from './page-container.tsx'
import { PageHeader } from './page-header.tsx'

type PlaceholderPageProps = { title: string; subtitle?: string; actions?: ReactNode }

/** A screen whose body a later issue builds; it shows its title so navigation can be tested. */
export function PlaceholderPage({ title, subtitle, actions }: PlaceholderPageProps) {
  return (
    <PageContainer>
      <PageHeader title={title} subtitle={subtitle} actions={actions} />
      <EmptyState title="Coming soon" description="This screen is being built." />
    </PageContainer>
  )
}

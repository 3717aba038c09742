import type { ReactNode } from 'react'
import { EmptyState } from '../../components/ui/empty-state.tsx'
import { AppsIcon } from '../../components/ui/icons.tsx'

/** The home screen of an organization without applications yet. */
export function ApplicationsEmptyState({ action }: { action?: ReactNode }) {
  return (
    <EmptyState
      icon={<AppsIcon className="size-6" />}
      title="No applications yet"
      description="Describe what you want to build, pick a model, and Sprout's agent will write it for you."
      action={action}
    />
  )
}

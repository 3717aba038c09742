import type { ReactNode } from 'react'
import { EmptyState } from '../../components/ui/empty-state.tsx'

/** The home screen of an organization without applications yet. */
export function ApplicationsEmptyState({ action }: { action?: ReactNode }) {
  return (
    <EmptyState
      icon={
        <svg viewBox="0 0 24 24" aria-hidden="true" className="size-6">
          <path
            d="M4 5h7v7H4zM13 5h7v7h-7zM4 14h7v5H4zM13 14h7v5h-7z"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.5"
            strokeLinejoin="round"
          />
        </svg>
      }
      title="No applications yet"
      description="Describe what you want to build, pick a model, and Sprout's agent will write it for you."
      action={action}
    />
  )
}

import type { Application } from '@sprout/protocol/api/applications.ts'
import { type ReactNode, useState } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { ApplicationCard } from './application-card.tsx'
import { ApplicationsEmptyState } from './applications-empty-state.tsx'
import { DeleteApplicationDialog } from './delete-application-dialog.tsx'
import { useApplications } from './use-applications.ts'
import { useDeleteApplication } from './use-delete-application.ts'

const gridClasses = 'grid gap-4 sm:grid-cols-2 lg:grid-cols-3'

/**
 * docs/product/applications.md "Applications list": the grid of cards, its loading and empty
 * states, and delete.
 */
export function ApplicationsList({
  organizationId,
  emptyAction,
}: {
  organizationId: string
  /** Shown in the empty state, e.g. a button that opens the create dialog. */
  emptyAction?: ReactNode
}) {
  const applications = useApplications(organizationId)
  const deletion = useDeleteApplication()
  const [toDelete, setToDelete] = useState<Application | undefined>()

  const cancelDelete = () => {
    setToDelete(undefined)
    deletion.reset()
  }
  const confirmDelete = () => {
    if (!toDelete) return
    deletion.mutate(toDelete.id, { onSuccess: () => setToDelete(undefined) })
  }

  let body: ReactNode
  if (applications.isPending) {
    body = <ApplicationsLoading />
  } else if (applications.isError) {
    body = (
      <Alert>
        <div className="flex items-center justify-between gap-4">
          <span>{applications.error.message}</span>
          <Button variant="secondary" size="sm" onClick={() => void applications.refetch()}>
            Try again
          </Button>
        </div>
      </Alert>
    )
  } else if (applications.data.length === 0) {
    body = <ApplicationsEmptyState action={emptyAction} />
  } else {
    body = (
      <section aria-label="Applications" className={gridClasses}>
        {applications.data.map((application) => (
          <ApplicationCard
            key={application.id}
            application={application}
            onDelete={() => setToDelete(application)}
          />
        ))}
      </section>
    )
  }

  return (
    <>
      {body}
      <DeleteApplicationDialog
        name={toDelete?.name}
        isDeleting={deletion.isPending}
        error={deletion.error?.message}
        onConfirm={confirmDelete}
        onCancel={cancelDelete}
      />
    </>
  )
}

function ApplicationsLoading() {
  return (
    <div role="status" aria-label="Loading applications" className={gridClasses}>
      {[0, 1, 2].map((index) => (
        <div
          key={index}
          className="h-[13.5rem] motion-safe:animate-pulse rounded-2xl border border-zinc-200 bg-white"
        >
          <div className="h-28 rounded-t-2xl bg-zinc-100" />
          <div className="space-y-2 p-4">
            <div className="h-3.5 w-2/3 rounded bg-zinc-100" />
            <div className="h-3 w-1/4 rounded bg-zinc-100" />
          </div>
        </div>
      ))}
    </div>
  )
}

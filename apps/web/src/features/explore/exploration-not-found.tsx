import { NotFoundPage } from '../../components/layout/not-found-page.tsx'

/** /explore/{id} of an exploration that does not exist, or not in this organization. */
export function ExplorationNotFound() {
  return (
    <NotFoundPage
      title="Exploration not found"
      message="It may have been deleted, or it belongs to another organization."
      linkText="Back to Applications"
    />
  )
}

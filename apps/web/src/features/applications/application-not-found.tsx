import { NotFoundPage } from '../../components/layout/not-found-page.tsx'

/** The builder of an application that does not exist, or not in this organization. */
export function ApplicationNotFound() {
  return (
    <NotFoundPage
      title="Application not found"
      message="It may have been deleted, or it belongs to another organization."
      linkText="Back to Applications"
    />
  )
}

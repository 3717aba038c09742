import { Link } from '@tanstack/react-router'
import { buttonClasses } from '../../components/ui/button.tsx'

/** /explore/{id} of an exploration that does not exist, or not in this organization. */
export function ExplorationNotFound() {
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center px-4 text-center">
      <p className="text-sm font-semibold text-accent-600">404</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-zinc-900">
        Exploration not found
      </h1>
      <p className="mt-1 max-w-sm text-sm text-zinc-500">
        It may have been deleted, or it belongs to another organization.
      </p>
      <Link to="/" className={`${buttonClasses('secondary')} mt-6`}>
        Back to Applications
      </Link>
    </div>
  )
}

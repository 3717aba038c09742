import { createFileRoute, Link } from '@tanstack/react-router'
import { buttonClasses } from '../components/ui/button.tsx'

export const Route = createFileRoute('/unauthorized')({
  component: UnauthorizedPage,
})

function UnauthorizedPage() {
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center px-4 text-center">
      <p className="text-sm font-semibold text-red-600">403</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-zinc-900">Access denied</h1>
      <p className="mt-1 text-sm text-zinc-500">
        You do not have permission to access this resource.
      </p>
      <Link to="/" className={`${buttonClasses('secondary')} mt-6`}>
        Return to Home
      </Link>
    </div>
  )
}

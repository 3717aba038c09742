import { Link } from '@tanstack/react-router'
import { buttonClasses } from '../ui/button.tsx'

export function NotFoundPage() {
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center px-4 text-center">
      <p className="text-sm font-semibold text-accent-600">404</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-zinc-900">Page not found</h1>
      <p className="mt-1 text-sm text-zinc-500">The page you are looking for does not exist.</p>
      <Link to="/" className={`${buttonClasses('secondary')} mt-6`}>
        Return to Home
      </Link>
    </div>
  )
}

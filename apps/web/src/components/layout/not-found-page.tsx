import { Link } from '@tanstack/react-router'
import { buttonClasses } from '../ui/button.tsx'

/** A 404 in the page's body: an unknown route, or a record that is gone or not in this organization. */
export function NotFoundPage({
  title = 'Page not found',
  message = 'The page you are looking for does not exist.',
  linkText = 'Return to Home',
}: {
  title?: string
  message?: string
  linkText?: string
}) {
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center px-4 text-center">
      <p className="text-sm font-semibold text-accent-600">404</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-zinc-900">{title}</h1>
      <p className="mt-1 max-w-sm text-sm text-zinc-500">{message}</p>
      <Link to="/" className={`${buttonClasses('secondary')} mt-6`}>
        {linkText}
      </Link>
    </div>
  )
}

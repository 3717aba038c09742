import { Link } from '@tanstack/react-router'
import { buttonClasses } from '../../components/ui/button.tsx'

/** What non-admins see on admin screens (docs/product/organizations.md "Access Restricted"). */
export function AccessRestricted() {
  return (
    <div className="flex min-h-[50vh] flex-col items-center justify-center text-center">
      <div className="mb-4 flex size-12 items-center justify-center rounded-2xl bg-zinc-100 text-zinc-500">
        <svg viewBox="0 0 24 24" aria-hidden="true" className="size-6">
          <path
            d="M7 11V8a5 5 0 0 1 10 0v3M6 11h12v9H6z"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.5"
            strokeLinejoin="round"
          />
        </svg>
      </div>
      <h1 className="text-xl font-semibold text-zinc-900">Access Restricted</h1>
      <p className="mt-1 text-sm text-zinc-500">You don't have permission to access this page.</p>
      <Link to="/" className={`${buttonClasses('secondary')} mt-6`}>
        Return to Home
      </Link>
    </div>
  )
}

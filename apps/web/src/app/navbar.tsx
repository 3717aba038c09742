import { useQuery } from '@tanstack/react-query'
import { Link, useRouterState } from '@tanstack/react-router'
import { SproutLogo } from '../components/sprout-logo.tsx'
import { buttonClasses } from '../components/ui/button.tsx'
import { useApplicationName } from '../hooks/use-application-name.ts'
import { sessionQueryOptions } from '../lib/session-query.ts'
import { useSignInOptions } from '../lib/sign-in-options-query.ts'
import { UserButton } from './user-button.tsx'

export function Navbar() {
  const session = useQuery(sessionQueryOptions)
  const applicationName = useApplicationName()
  const pathname = useRouterState({ select: (state) => state.location.pathname })
  // docs/product/auth.md "Sign-up rules": no way to a form that would refuse everybody.
  const signInOptions = useSignInOptions({ enabled: pathname === '/signin' && !session.data })
  const signUpOpen = signInOptions.data !== undefined && signInOptions.data.signUp !== 'closed'

  return (
    <header className="sticky top-0 z-30 border-b border-zinc-200/80 bg-white/80 backdrop-blur">
      <nav aria-label="Main" className="flex h-14 w-full items-center gap-3 px-4 sm:px-6">
        <Link
          to="/"
          className="flex shrink-0 items-center gap-2 rounded-lg text-[15px] font-semibold tracking-tight text-zinc-900"
        >
          <SproutLogo />
          Sprout
        </Link>
        {applicationName && (
          <>
            <span aria-hidden="true" className="text-zinc-300">
              /
            </span>
            <span
              data-testid="navbar-application-name"
              className="min-w-0 truncate text-sm font-medium text-zinc-700"
            >
              {applicationName}
            </span>
          </>
        )}
        <div className="ml-auto flex items-center gap-2">
          {session.data ? (
            <UserButton session={session.data} />
          ) : session.isPending ? null : pathname === '/signin' ? (
            signUpOpen && (
              <Link to="/signup" className={buttonClasses('primary', 'sm')}>
                Sign up
              </Link>
            )
          ) : (
            <Link to="/signin" className={buttonClasses('secondary', 'sm')}>
              Sign in
            </Link>
          )}
        </div>
      </nav>
    </header>
  )
}

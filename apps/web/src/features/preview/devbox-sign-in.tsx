import { Link } from '@tanstack/react-router'
import { useEffect, useMemo, useState } from 'react'
import { buttonClasses } from '../../components/ui/button.tsx'
import { CenteredSpinner } from '../../components/ui/spinner.tsx'
import { AUTHENTICATION_FAILED, parseDevboxAuthRequest } from './devbox-auth-request.ts'
import { devboxCallbackUrl, devboxTokenErrorMessage, requestDevboxToken } from './devbox-token.ts'

/**
 * docs/product/auth.md "Devbox auth": signs the browser in to a dev box's preview origin. Gets a
 * token for the signed-in user and sends the browser on to the dev box's callback, which sets its
 * cookie.
 */
export function DevboxSignIn({ searchString }: { searchString: string }) {
  const parsed = useMemo(
    () => parseDevboxAuthRequest(new URLSearchParams(searchString)),
    [searchString],
  )
  const [tokenError, setTokenError] = useState<string | undefined>()

  useEffect(() => {
    if (!parsed.ok) return
    let cancelled = false
    const { devboxUrl, returnPath } = parsed.request
    requestDevboxToken(devboxUrl).then(
      (token) => {
        if (!cancelled) window.location.replace(devboxCallbackUrl(devboxUrl, token, returnPath))
      },
      (error: unknown) => {
        if (!cancelled) setTokenError(devboxTokenErrorMessage(error))
      },
    )
    return () => {
      cancelled = true
    }
  }, [parsed])

  const error = parsed.ok ? tokenError : parsed.error
  if (error === undefined) return <CenteredSpinner label="Signing you in to your app..." />
  return <DevboxAuthError message={error} />
}

function DevboxAuthError({ message }: { message: string }) {
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center px-4 text-center">
      <div className="mb-4 flex size-12 items-center justify-center rounded-2xl bg-red-50 text-red-600">
        <svg viewBox="0 0 24 24" aria-hidden="true" className="size-6">
          <path
            d="M12 8v5m0 3.5v.01M10.3 3.9 2.6 17.2A2 2 0 0 0 4.3 20h15.4a2 2 0 0 0 1.7-2.8L13.7 3.9a2 2 0 0 0-3.4 0Z"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.5"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
      </div>
      <h1 className="text-xl font-semibold text-zinc-900">Authentication Error</h1>
      <p role="alert" className="mt-1 max-w-md text-sm text-zinc-500">
        {message || AUTHENTICATION_FAILED}
      </p>
      <Link to="/" className={`${buttonClasses('secondary')} mt-6`}>
        Return to Home
      </Link>
    </div>
  )
}

import { useEffect, useMemo, useState } from 'react'
import { NoticePage } from '../../components/layout/notice-page.tsx'
import { WarningIcon } from '../../components/ui/icons.tsx'
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
    <NoticePage
      icon={<WarningIcon className="size-6" />}
      tone="danger"
      title="Authentication Error"
      message={message || AUTHENTICATION_FAILED}
      alert
      className="min-h-[60vh] px-4"
    />
  )
}

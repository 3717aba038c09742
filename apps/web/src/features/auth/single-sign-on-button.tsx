import {
  SINGLE_SIGN_ON_ERRORS,
  SINGLE_SIGN_ON_FALLBACK_ERROR,
} from '@sprout/protocol/api/single-sign-on.ts'
import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { authClient, unwrapAuthResult } from '../../lib/auth-client.ts'
import { useSignInOptions } from '../../lib/sign-in-options-query.ts'
import { signUpRuleText } from './sign-up-rule-text.ts'

/**
 * 'Sign in with {name}' on /signin and /signup (docs/product/auth.md "Single sign-on"), and why
 * the last attempt failed. The provider's redirect is a full navigation; it comes back to
 * `redirectTo`, or to /signin with `?error=` on failure.
 */
export function SingleSignOnButton({ redirectTo }: { redirectTo?: string }) {
  const options = useSignInOptions()
  const [failure] = useState(() => failureText(new URLSearchParams(window.location.search)))
  const start = useMutation({
    mutationFn: () =>
      unwrapAuthResult(
        authClient.signIn.social({
          provider: 'sso',
          callbackURL: redirectTo ?? '/',
          errorCallbackURL: '/signin',
        }),
      ),
  })
  const singleSignOn = options.data?.singleSignOn
  if (!singleSignOn) return null
  const refusal = failure === signUpRefused ? options.data && signUpRuleText(options.data) : failure
  return (
    <div className="mb-4 flex flex-col gap-4">
      {failure && <Alert>{refusal ?? SINGLE_SIGN_ON_FALLBACK_ERROR}</Alert>}
      {start.error && <Alert>{start.error.message}</Alert>}
      <Button
        type="button"
        variant="secondary"
        className="w-full"
        disabled={start.isPending || start.isSuccess}
        onClick={() => start.mutate()}
      >
        Sign in with {singleSignOn.name}
      </Button>
      {!options.data?.ssoOnly && (
        <div className="flex items-center gap-3 text-xs text-zinc-400">
          <span className="h-px flex-1 bg-zinc-200" />
          or
          <span className="h-px flex-1 bg-zinc-200" />
        </div>
      )}
    </div>
  )
}

// The sign-up rules' refusal (auth.ts): its text is the rule /signup states, never the URL's.
const signUpRefused = 'SIGN_UP_REFUSED'

/** The text of a failed attempt's `?error=`; a description in the URL is never shown as is. */
function failureText(search: URLSearchParams): string | undefined {
  const error = search.get('error')
  if (!error) return undefined
  if (error === signUpRefused) return signUpRefused
  return SINGLE_SIGN_ON_ERRORS[error] ?? SINGLE_SIGN_ON_FALLBACK_ERROR
}

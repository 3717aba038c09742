import { createFileRoute, useRouterState } from '@tanstack/react-router'
import { DevboxSignIn } from '../features/preview/devbox-sign-in.tsx'

/**
 * docs/product/auth.md "Devbox auth": needs a signed-in user (others sign in and come back) but no
 * organization — the server checks that the user may see the dev box's application.
 */
export const Route = createFileRoute('/_authenticated/auth/devbox')({
  component: DevboxAuthPage,
})

function DevboxAuthPage() {
  // The raw query: the base64 `auth` value must not go through the router's JSON search parsing.
  const searchString = useRouterState({ select: (state) => state.location.searchStr })
  return <DevboxSignIn searchString={searchString} />
}

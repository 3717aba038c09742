import { cookieHeader, type TestApp } from './app-harness.ts'
import { followToRedirect } from './oauth-server.ts'

/**
 * Single sign-on as the browser does it: the sign-in button's call, the identity provider's
 * redirects (its login answered by `loginAs`), and the callback with the state cookies.
 */
export async function startSingleSignOn(harness: TestApp) {
  const response = await harness.request('/api/auth/sign-in/social', {
    method: 'POST',
    body: JSON.stringify({ provider: 'sso', callbackURL: '/', errorCallbackURL: '/signin' }),
  })
  if (response.status !== 200) throw new Error(`sign-in/social: ${await response.text()}`)
  const { url } = (await response.json()) as { url: string }
  return { authorizationUrl: url, stateCookie: cookieHeader(response) }
}

/** The URL the identity provider sends the browser back to. */
export function reachCallback(harness: TestApp, authorizationUrl: string) {
  return followToRedirect(authorizationUrl, `${harness.config.publicUrl}/api/auth/callback/sso`)
}

/** Opens a callback URL with the browser's cookies: where it leads, and the session it sets. */
export async function openCallback(harness: TestApp, callback: URL, stateCookie: string) {
  const response = await harness.request(`${callback.pathname}${callback.search}`, {
    headers: { cookie: stateCookie },
  })
  const location = new URL(response.headers.get('location') ?? '', harness.config.publicUrl)
  const sessionCookie = cookieHeader(response)
    .split('; ')
    .filter((pair) => pair.startsWith('sprout.session_token='))
    .join('; ')
  return { status: response.status, location, sessionCookie }
}

/** The whole round trip; the session's user when one was set. */
export async function signInWithSingleSignOn(harness: TestApp) {
  const { authorizationUrl, stateCookie } = await startSingleSignOn(harness)
  const callback = await reachCallback(harness, authorizationUrl)
  const opened = await openCallback(harness, callback, stateCookie)
  const user = opened.sessionCookie ? await sessionUser(harness, opened.sessionCookie) : undefined
  return { ...opened, callback, stateCookie, authorizationUrl, user }
}

export async function sessionUser(harness: TestApp, cookie: string) {
  const response = await harness.request('/api/auth/get-session', { headers: { cookie } })
  const body = (await response.json()) as {
    user: { id: string; email: string; name: string; emailVerified: boolean }
  } | null
  return body?.user
}

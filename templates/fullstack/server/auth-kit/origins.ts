/**
 * The addresses this app is reached at. Sprout sets SPROUT_APP_ORIGINS to the app's exact
 * origins, comma-separated (its preview and its deployed address); outside Sprout any localhost
 * or 127.0.0.1 port is the app. Never a wildcard subdomain: the other apps of the same Sprout
 * live on sibling subdomains, and trusting them would let their pages act for this app's users.
 */
const loopbackHost = /^(localhost|127\.0\.0\.1)(:\d+)?$/

export const listedOrigins = parseOrigins(process.env.SPROUT_APP_ORIGINS ?? '')

// The dev server is also opened at http://127.0.0.1:<port> from inside its box, by the
// acceptance tests and the agent's browser.
const loopbackIsApp = listedOrigins.length === 0 || process.env.NODE_ENV !== 'production'

/** Whether every address of the app is https (then cookies are Secure in production). */
export const everyOriginIsHttps =
  listedOrigins.length > 0 && listedOrigins.every((origin) => origin.startsWith('https://'))

/** The host patterns better-auth accepts; each also becomes a trusted Origin. */
export const allowedHosts = [
  ...listedOrigins,
  ...(loopbackIsApp ? ['localhost:*', '127.0.0.1:*'] : []),
]

/** Whether a page at `origin` (an Origin header) is this app's own. */
export function isAppOrigin(origin: string): boolean {
  if (listedOrigins.includes(origin)) return true
  const url = URL.parse(origin)
  return loopbackIsApp && url !== null && url.origin === origin && loopbackHost.test(url.host)
}

/**
 * The app origin a request was sent to. Sprout's proxy names the host the browser used in
 * x-forwarded-host (and drops any the browser sent); without a proxy it is the Host header.
 */
export function publicOrigin(headers: Headers): string | undefined {
  const host = headers.get('x-forwarded-host') || headers.get('host') || ''
  const listed = listedOrigins.find((origin) => new URL(origin).host === host)
  if (listed) return listed
  return loopbackIsApp && loopbackHost.test(host) ? `http://${host}` : undefined
}

/**
 * Whether a request may act for the signed-in user: reads always may; a change must come from
 * the app's own pages, not from a form or script of another site (cross-site request forgery).
 */
export function comesFromApp(request: Request): boolean {
  if (['GET', 'HEAD', 'OPTIONS'].includes(request.method)) return true
  const origin = request.headers.get('origin')
  if (origin) return isAppOrigin(origin)
  // Browsers send Origin with every cross-origin change; a request without it is not a page's.
  const site = request.headers.get('sec-fetch-site')
  return site !== 'cross-site' && site !== 'same-site'
}

function parseOrigins(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const url = URL.parse(entry)
      if (!url || !['http:', 'https:'].includes(url.protocol) || url.origin !== entry) {
        throw new Error(
          `SPROUT_APP_ORIGINS lists "${entry}", which is not an origin like http://notes.apps.localhost:3000`,
        )
      }
      return url.origin
    })
}

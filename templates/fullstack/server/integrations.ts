/**
 * The organization's connections (Linear, Google Sheets, HubSpot, … — connected by an admin in
 * Sprout's Settings): `getAccessToken('linear')` returns a fresh OAuth access token for that
 * service, to call its API from a server route. Sprout sets SPROUT_APP_TOKEN (this app's own
 * token) and SPROUT_INTERNAL_URL (http://sprout.internal, which only this app's servers reach).
 * Use it on the server only: never send the token to the browser.
 */

type TokenAnswer = { access_token?: string; expires_at?: string | null; error?: string }

/** A fresh access token for `service` (e.g. 'linear'); throws with the reason when there is none. */
export async function getAccessToken(service: string): Promise<string> {
  const appToken = process.env.SPROUT_APP_TOKEN
  if (!appToken) {
    throw new Error('SPROUT_APP_TOKEN is not set: connections are only available inside Sprout')
  }
  const base = process.env.SPROUT_INTERNAL_URL ?? 'http://sprout.internal'
  const response = await fetch(`${base}/integrations/${encodeURIComponent(service)}/token`, {
    headers: { authorization: `Bearer ${appToken}` },
  })
  const body = (await response.json().catch(() => ({}))) as TokenAnswer
  if (!response.ok || !body.access_token) {
    throw new Error(
      `No access token for ${service}: ${body.error ?? `the answer was ${response.status}`}`,
    )
  }
  return body.access_token
}

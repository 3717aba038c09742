import http from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider, { type Configuration } from 'oidc-provider'

/**
 * A real OAuth 2.0 authorization server for tests (oidc-provider on loopback; decision 018):
 * it requires PKCE, rotates refresh tokens, revokes (RFC 7009) and sends `iss` (RFC 9207).
 * Its login and consent are answered at once as the user `alice`, or denied on demand.
 */
export type TestAuthorizationServer = Awaited<ReturnType<typeof startAuthorizationServer>>

export async function startAuthorizationServer(options: { redirectUris: string[] }) {
  const state: {
    accessTokenSeconds: number
    deny: boolean
    beforeToken?: () => Promise<void>
  } = { accessTokenSeconds: 3600, deny: false }
  const clientId = 'sprout-test-client'
  const clientSecret = `secret-${crypto.randomUUID()}`
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    scopes: ['read', 'write', 'offline_access'],
    pkce: { required: () => true },
    features: { revocation: { enabled: true }, devInteractions: { enabled: false } },
    issueRefreshToken: async () => true,
    rotateRefreshToken: () => true,
    ttl: {
      AccessToken: () => state.accessTokenSeconds,
      AuthorizationCode: 60,
      RefreshToken: 24 * 3600,
      Grant: 24 * 3600,
      Interaction: 600,
      Session: 3600,
    },
    interactions: { url: (_context, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['test-cookie-key'] },
  }
  const provider = new Provider(issuer, configuration)
  const handleProvider = provider.callback()
  server.on('request', (request, response) => {
    if (request.url === '/token' && state.beforeToken) {
      void state.beforeToken().then(() => handleProvider(request, response))
      return
    }
    if (!request.url?.startsWith('/interaction/')) return handleProvider(request, response)
    answerInteraction(provider, state, request, response).catch((error: Error) => {
      response.statusCode = 500
      response.end(error.message)
    })
  })

  return {
    issuer,
    clientId,
    clientSecret,
    authUrl: `${issuer}/auth`,
    tokenUrl: `${issuer}/token`,
    revokeUrl: `${issuer}/token/revocation`,
    provider,
    /** Access tokens issued from now on live this long. */
    setAccessTokenSeconds: (seconds: number) => {
      state.accessTokenSeconds = seconds
    },
    /** Runs before each token request is answered (a test holds or counts them); none: unset. */
    setBeforeToken: (beforeToken: (() => Promise<void>) | undefined) => {
      state.beforeToken = beforeToken
    },
    /** The user refuses consent (the callback gets error=access_denied). */
    setDeny: (deny: boolean) => {
      state.deny = deny
    },
    /** Whether the server still honours the token (not expired, revoked or spent). */
    isActive: async (token: string, kind: 'access' | 'refresh') => {
      if (kind === 'access') {
        const found = await provider.AccessToken.find(token)
        return Boolean(found && !found.isExpired)
      }
      const found = await provider.RefreshToken.find(token)
      return Boolean(found && !found.isExpired && !found.consumed)
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

async function answerInteraction(
  provider: Provider,
  state: { deny: boolean },
  request: http.IncomingMessage,
  response: http.ServerResponse,
) {
  const details = await provider.interactionDetails(request, response)
  if (state.deny) {
    const denied = { error: 'access_denied', error_description: 'The user said no' }
    await provider.interactionFinished(request, response, denied, {
      mergeWithLastSubmission: false,
    })
    return
  }
  if (details.prompt.name === 'login') {
    await provider.interactionFinished(request, response, { login: { accountId: 'alice' } })
    return
  }
  const grant = new provider.Grant({
    accountId: details.session?.accountId ?? 'alice',
    clientId: String(details.params.client_id),
  })
  grant.addOIDCScope(String(details.params.scope ?? ''))
  const grantId = await grant.save()
  await provider.interactionFinished(request, response, { consent: { grantId } })
}

/**
 * Acts as the browser: follows the authorization server's redirects (keeping its cookies) from
 * the authorization URL until one leaves for `redirectPrefix`, and returns that URL.
 */
export async function followToRedirect(authorizationUrl: string, redirectPrefix: string) {
  const cookies = new Map<string, string>()
  let url = authorizationUrl
  for (let hop = 0; hop < 20; hop++) {
    if (url.startsWith(redirectPrefix)) return new URL(url)
    const cookieHeader = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: cookieHeader } })
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';')
      const index = pair.indexOf('=')
      cookies.set(pair.slice(0, index), pair.slice(index + 1))
    }
    const location = response.headers.get('location')
    if (!location) throw new Error(`${url} answered ${response.status}: ${await response.text()}`)
    url = new URL(location, url).toString()
  }
  throw new Error('Too many redirects')
}

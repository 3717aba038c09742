import { once } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A real OAuth 2.0 authorization server (oidc-provider) for the browser tests, on a port of its
 * own: authorization code with PKCE, client_secret_post, refresh tokens and revocation. The
 * consent screen approves at once for the user 'e2e-user', as a user clicking Allow would.
 */

type ProviderInstance = {
  callback(): (request: IncomingMessage, response: ServerResponse) => void
  interactionDetails(
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<{
    prompt: { name: string; details: { missingOIDCScope?: string[] } }
    params: { client_id: string }
    session?: { accountId: string }
    grantId?: string
  }>
  interactionFinished(
    request: IncomingMessage,
    response: ServerResponse,
    result: Record<string, unknown>,
    options?: { mergeWithLastSubmission: boolean },
  ): Promise<void>
  Grant: new (fields: {
    accountId: string
    clientId: string
  }) => { addOIDCScope(scope: string): void; save(): Promise<string> }
}
type ProviderConstructor = new (issuer: string, configuration: object) => ProviderInstance

export type AuthorizationServer = {
  issuer: string
  authUrl: string
  tokenUrl: string
  revokeUrl: string
  clientId: string
  clientSecret: string
  close: () => Promise<void>
}

export async function startAuthorizationServer(options: {
  redirectUri: string
  scopes: string[]
}): Promise<AuthorizationServer> {
  // No type declarations ship with oidc-provider; the shape used is typed above.
  const specifier = 'oidc-provider'
  const { default: Provider } = (await import(specifier)) as { default: ProviderConstructor }
  const clientId = 'sprout-e2e'
  const clientSecret = 'sprout-e2e-secret'

  let provider: ProviderInstance | undefined
  const server = createServer((request, response) => {
    if (!provider) return response.writeHead(503).end()
    if (request.url?.startsWith('/interaction/')) {
      void approve(provider, request, response).catch((error: unknown) => {
        response.writeHead(500).end(String(error))
      })
      return
    }
    provider.callback()(request, response)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    scopes: options.scopes,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false }, revocation: { enabled: true } },
    interactions: {
      url: (_context: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    issueRefreshToken: () => true,
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 3600, RefreshToken: 86_400 },
    findAccount: (_context: unknown, accountId: string) => ({
      accountId,
      claims: () => ({ sub: accountId }),
    }),
  })

  return {
    issuer,
    authUrl: `${issuer}/auth`,
    tokenUrl: `${issuer}/token`,
    revokeUrl: `${issuer}/token/revocation`,
    clientId,
    clientSecret,
    close: async () => {
      server.closeAllConnections()
      server.close()
      await once(server, 'close')
    },
  }
}

/** Signs 'e2e-user' in, then grants every scope asked for. */
async function approve(
  provider: ProviderInstance,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const details = await provider.interactionDetails(request, response)
  if (details.prompt.name === 'login') {
    await provider.interactionFinished(
      request,
      response,
      { login: { accountId: 'e2e-user' } },
      { mergeWithLastSubmission: false },
    )
    return
  }
  const grant = new provider.Grant({
    accountId: details.session?.accountId ?? 'e2e-user',
    clientId: details.params.client_id,
  })
  const missing = details.prompt.details.missingOIDCScope ?? []
  if (missing.length > 0) grant.addOIDCScope(missing.join(' '))
  const grantId = await grant.save()
  await provider.interactionFinished(
    request,
    response,
    { consent: { grantId } },
    { mergeWithLastSubmission: true },
  )
}

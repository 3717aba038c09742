import { isLoopbackHost } from '@sprout/protocol/api/integrations.ts'
import * as oauth from 'oauth4webapi'

/** What the client needs of a definition (the secret already unsealed). */
export type OAuthEndpoints = {
  clientId: string
  clientSecret: string
  authUrl: string
  tokenUrl: string
  revokeUrl: string | null
}

export type TokenSet = {
  accessToken: string
  refreshToken: string | undefined
  expiresAt: Date | null
  scopes: string[] | undefined
}

/** The authorization server said no (an OAuth error body): the grant is unusable. */
export class OAuthRefusal extends Error {
  override name = 'OAuthRefusal'
  readonly code: string

  constructor(code: string, description: string | undefined) {
    super(description ? `${code}: ${description}` : code)
    this.code = code
  }
}

/**
 * OAuth 2.0 on oauth4webapi (decision 018): code with PKCE S256, client_secret_post, refresh, RFC
 * 7009 revocation. No metadata discovery: the admin's URLs are the endpoints and the issuer is the
 * auth URL's origin (`expectedIssuer`).
 */
function authorizationServer(endpoints: OAuthEndpoints, issuer: string): oauth.AuthorizationServer {
  return {
    issuer,
    authorization_endpoint: endpoints.authUrl,
    token_endpoint: endpoints.tokenUrl,
    ...(endpoints.revokeUrl ? { revocation_endpoint: endpoints.revokeUrl } : {}),
  }
}

/**
 * http:// is only ever accepted for loopback hosts (the form's rule, a local authorization
 * server in tests); oauth4webapi refuses it otherwise.
 */
function requestOptions(url: string) {
  const { protocol, hostname } = new URL(url)
  const insecure = protocol === 'http:' && isLoopbackHost(hostname)
  return { [oauth.allowInsecureRequests]: insecure, signal: AbortSignal.timeout(15_000) }
}

/**
 * RFC 9207: an `iss` in the callback must name the server we sent the user to. Without discovery
 * that is any issuer on the auth URL's origin; another origin is a mix-up and refused.
 */
function expectedIssuer(endpoints: OAuthEndpoints, receivedIssuer: string | null): string {
  const authOrigin = new URL(endpoints.authUrl).origin
  if (receivedIssuer && URL.canParse(receivedIssuer)) {
    if (new URL(receivedIssuer).origin === authOrigin) return receivedIssuer
  }
  return authOrigin
}

export async function createPkcePair() {
  const codeVerifier = oauth.generateRandomCodeVerifier()
  return { codeVerifier, codeChallenge: await oauth.calculatePKCECodeChallenge(codeVerifier) }
}

/** The auth URL with the admin's parameters, then ours (which always win). */
export function buildAuthorizationUrl(input: {
  authUrl: string
  clientId: string
  redirectUri: string
  state: string
  scopes: string[]
  additionalParams: Record<string, string>
  codeChallenge: string
}): string {
  const url = new URL(input.authUrl)
  for (const [name, value] of Object.entries(input.additionalParams)) {
    url.searchParams.set(name, value)
  }
  url.searchParams.set('response_type', 'code')
  url.searchParams.set('client_id', input.clientId)
  url.searchParams.set('redirect_uri', input.redirectUri)
  url.searchParams.set('state', input.state)
  if (input.scopes.length > 0) url.searchParams.set('scope', input.scopes.join(' '))
  url.searchParams.set('code_challenge', input.codeChallenge)
  url.searchParams.set('code_challenge_method', 'S256')
  return url.toString()
}

function toTokenSet(response: oauth.TokenEndpointResponse): TokenSet {
  const expiresIn = response.expires_in
  return {
    accessToken: response.access_token,
    refreshToken: response.refresh_token,
    expiresAt: typeof expiresIn === 'number' ? new Date(Date.now() + expiresIn * 1000) : null,
    scopes:
      typeof response.scope === 'string' ? response.scope.split(' ').filter(Boolean) : undefined,
  }
}

function asRefusal(error: unknown): unknown {
  if (error instanceof oauth.ResponseBodyError) {
    return new OAuthRefusal(error.error, error.error_description)
  }
  if (error instanceof oauth.AuthorizationResponseError) {
    return new OAuthRefusal(error.error, error.error_description)
  }
  return error
}

/** Runs one request of this client to the server; error answers become OAuthRefusal. */
async function asClient<Result>(
  endpoints: OAuthEndpoints,
  issuer: string,
  request: (
    as: oauth.AuthorizationServer,
    client: oauth.Client,
    authentication: oauth.ClientAuth,
  ) => Promise<Result>,
): Promise<Result> {
  const as = authorizationServer(endpoints, issuer)
  const client: oauth.Client = { client_id: endpoints.clientId }
  try {
    return await request(as, client, oauth.ClientSecretPost(endpoints.clientSecret))
  } catch (error) {
    throw asRefusal(error)
  }
}

/**
 * Checks the callback's parameters (state already checked by the caller, `iss` here) and
 * exchanges the code with the PKCE verifier. Throws OAuthRefusal for an `error` callback or an
 * error body from the token endpoint, another error for anything else (mix-up, network).
 */
export async function exchangeCode(
  endpoints: OAuthEndpoints,
  callback: URLSearchParams,
  redirectUri: string,
  codeVerifier: string,
): Promise<TokenSet> {
  const issuer = expectedIssuer(endpoints, callback.get('iss'))
  return asClient(endpoints, issuer, async (as, client, authentication) => {
    const parameters = oauth.validateAuthResponse(as, client, callback, oauth.skipStateCheck)
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      authentication,
      parameters,
      redirectUri,
      codeVerifier,
      requestOptions(endpoints.tokenUrl),
    )
    return toTokenSet(await oauth.processAuthorizationCodeResponse(as, client, response))
  })
}

export async function refreshTokens(
  endpoints: OAuthEndpoints,
  refreshToken: string,
): Promise<TokenSet> {
  return asClient(
    endpoints,
    new URL(endpoints.authUrl).origin,
    async (as, client, authentication) => {
      const response = await oauth.refreshTokenGrantRequest(
        as,
        client,
        authentication,
        refreshToken,
        requestOptions(endpoints.tokenUrl),
      )
      return toTokenSet(await oauth.processRefreshTokenResponse(as, client, response))
    },
  )
}

/** RFC 7009: a 200 means the token is no longer valid (or never was). */
export async function revokeToken(
  endpoints: OAuthEndpoints & { revokeUrl: string },
  token: string,
  hint: 'access_token' | 'refresh_token',
): Promise<void> {
  await asClient(
    endpoints,
    new URL(endpoints.authUrl).origin,
    async (as, client, authentication) => {
      const response = await oauth.revocationRequest(as, client, authentication, token, {
        ...requestOptions(endpoints.revokeUrl),
        additionalParameters: { token_type_hint: hint },
      })
      await oauth.processRevocationResponse(response)
    },
  )
}

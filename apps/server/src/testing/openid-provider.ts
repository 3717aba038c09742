import http from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider, { type Configuration } from 'oidc-provider'

/**
 * A real OpenID Connect provider for single sign-on tests (oidc-provider on loopback, like
 * oauth-server.ts): discovery, PKCE required, signed ID tokens, `iss` in the authorization
 * response (RFC 9207). Its login page asks for an email; `loginAs` answers it at once instead.
 */
export type OpenIdAccount = { email: string; emailVerified: boolean; name: string }
export type TestOpenIdProvider = Awaited<ReturnType<typeof startOpenIdProvider>>

export async function startOpenIdProvider(options: { redirectUris: string[] }) {
  const accounts = new Map<string, OpenIdAccount>()
  const state: { loginAs: string | undefined } = { loginAs: undefined }
  const authorizationRequests: URL[] = []
  const clientId = 'sprout-sso-client'
  const clientSecret = `sso-secret-${crypto.randomUUID()}`
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    conformIdTokenClaims: false,
    findAccount: (_context, accountId) => {
      const account = accounts.get(accountId)
      if (!account) return undefined
      return {
        accountId,
        claims: () => ({
          sub: accountId,
          email: account.email,
          email_verified: account.emailVerified,
          name: account.name,
        }),
      }
    },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_context, interaction) => `/interaction/${interaction.uid}` },
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      IdToken: 3600,
      Grant: 3600,
      Interaction: 600,
      Session: 3600,
    },
    cookies: { keys: ['test-cookie-key'] },
  }
  const provider = new Provider(issuer, configuration)
  const handleProvider = provider.callback()
  server.on('request', (request, response) => {
    const url = new URL(request.url ?? '/', issuer)
    if (url.pathname === '/auth') authorizationRequests.push(url)
    if (!url.pathname.startsWith('/interaction/')) return handleProvider(request, response)
    answerInteraction(provider, accounts, state, request, response).catch((error: Error) => {
      response.statusCode = 500
      response.end(error.message)
    })
  })

  return {
    issuer,
    clientId,
    clientSecret,
    /** The authorization requests received, newest last (to read their parameters). */
    authorizationRequests,
    /** An account that can sign in; returns its subject. */
    addAccount: (account: OpenIdAccount) => {
      const subject = `subject-${crypto.randomUUID()}`
      accounts.set(subject, account)
      return subject
    },
    /** The next logins are answered at once as this subject (no login page). */
    loginAs: (subject: string | undefined) => {
      state.loginAs = subject
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
  accounts: Map<string, OpenIdAccount>,
  state: { loginAs: string | undefined },
  request: http.IncomingMessage,
  response: http.ServerResponse,
) {
  const details = await provider.interactionDetails(request, response)
  if (details.prompt.name === 'login') {
    const subject = state.loginAs ?? (await submittedLogin(request, accounts))
    if (!subject) {
      response.setHeader('content-type', 'text/html; charset=utf-8')
      response.end(loginPage(details.uid))
      return
    }
    await provider.interactionFinished(request, response, { login: { accountId: subject } })
    return
  }
  const grant = new provider.Grant({
    accountId: details.session?.accountId ?? '',
    clientId: String(details.params.client_id),
  })
  grant.addOIDCScope(String(details.params.scope ?? ''))
  const grantId = await grant.save()
  await provider.interactionFinished(request, response, { consent: { grantId } })
}

/** The subject of the email posted by the login page, if any. */
async function submittedLogin(
  request: http.IncomingMessage,
  accounts: Map<string, OpenIdAccount>,
): Promise<string | undefined> {
  if (request.method !== 'POST') return undefined
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  const email = new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('email') ?? ''
  return [...accounts].find(([, account]) => account.email === email)?.[0]
}

function loginPage(uid: string) {
  return `<!doctype html><html><head><title>Test identity provider</title></head><body>
<h1>Test identity provider</h1>
<form method="post" action="/interaction/${uid}">
<label>Email <input name="email" type="email"></label>
<button type="submit">Continue</button>
</form></body></html>`
}

import { SINGLE_SIGN_ON_MESSAGES } from '@sprout/protocol/api/single-sign-on.ts'
import { APIError, type AuthContext, type BetterAuthPlugin } from 'better-auth'
import { createAuthMiddleware } from 'better-auth/api'
import { type GenericOAuthConfig, genericOAuth } from 'better-auth/plugins/generic-oauth'
import type { Config } from '../config/config.ts'

/**
 * Single sign-on with OpenID Connect (docs/product/auth.md "Single sign-on"), on better-auth's
 * generic OAuth plugin: discovery, PKCE, the `iss` check (RFC 9207) and ID-token verification
 * with a nonce are its own. Sign-in goes through `POST /sign-in/social {provider: 'sso'}` and
 * comes back at `GET /callback/sso` (docs/decisions/025-single-sign-on.md).
 */
export const singleSignOnProviderId = 'sso'

export type SingleSignOnSettings = {
  issuer: string
  clientId: string
  clientSecret: string | undefined
  name: string
}

export const discoveryUrlOf = (issuer: string) => `${issuer}/.well-known/openid-configuration`

export const callbackUrlOf = (publicUrl: string) =>
  `${publicUrl}/api/auth/callback/${singleSignOnProviderId}`

function providerConfig(settings: SingleSignOnSettings): GenericOAuthConfig {
  return {
    providerId: singleSignOnProviderId,
    name: settings.name,
    discoveryUrl: discoveryUrlOf(settings.issuer),
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    scopes: ['openid', 'email', 'profile'],
    pkce: true,
    // Without the provider's keys an ID token's claims (the email above all) could be forged.
    requireIdTokenVerification: true,
  }
}

type PendingDiscovery = Map<string, GenericOAuthConfig>
/** The auth of auth.ts, which builds its plugins from this file (so not imported from there). */
type RunningAuth = { $context: Promise<object> }

const pendingDiscoveryOf = (context: AuthContext) =>
  (context as { genericOAuthPendingDiscovery?: PendingDiscovery }).genericOAuthPendingDiscovery

const findProvider = (context: AuthContext) =>
  context.socialProviders.find((provider) => provider.id === singleSignOnProviderId)

/** Whether sign-in with the provider is on offer (built, or waiting for its discovery). */
function isConfigured(context: AuthContext) {
  return (
    findProvider(context) !== undefined ||
    pendingDiscoveryOf(context)?.has(singleSignOnProviderId) === true
  )
}

/**
 * The generic OAuth plugin is always there, with the environment's provider or none: an admin
 * may configure one later (installProvider), and the plugin retries a discovery that failed
 * at start on the next sign-in. Sprout's own plugin sends OAuth errors back to /signin,
 * encrypts the provider's tokens and refuses password sign-in under SSO_ONLY.
 */
export function singleSignOnPlugins(config: Pick<Config, 'oidc' | 'publicUrl' | 'ssoOnly'>) {
  const environment = config.oidc ? [providerConfig(config.oidc)] : []
  return [genericOAuth({ config: environment }), sproutSingleSignOn(config)]
}

const passwordPaths = new Set(['/sign-in/email', '/sign-up/email'])

function sproutSingleSignOn(config: Pick<Config, 'publicUrl' | 'ssoOnly'>): BetterAuthPlugin {
  return {
    id: 'sprout-single-sign-on',
    // OAuth failures come back to /signin; the provider's tokens, which Sprout never uses, are
    // encrypted at rest.
    init: () => ({
      options: {
        onAPIError: { errorURL: `${config.publicUrl}/signin` },
        account: { encryptOAuthTokens: true },
      },
    }),
    hooks: {
      before: [
        {
          matcher: (context) => config.ssoOnly === true && passwordPaths.has(context.path ?? ''),
          handler: createAuthMiddleware(async (context) => {
            if (!isConfigured(context.context)) return
            const name = providerName(context.context) ?? 'SSO'
            throw new APIError('FORBIDDEN', {
              message: SINGLE_SIGN_ON_MESSAGES.passwordSignInOff(name),
              code: 'SSO_ONLY',
            })
          }),
        },
      ],
    },
  }
}

function providerName(context: AuthContext): string | undefined {
  return (
    findProvider(context)?.name ?? pendingDiscoveryOf(context)?.get(singleSignOnProviderId)?.name
  )
}

/**
 * Replaces the provider in the running auth, for the requests after it (an admin's change needs
 * no restart). Built before the old one goes, so no sign-in meanwhile finds none. Answers false
 * when discovery failed: the plugin then retries it on the next sign-in.
 */
export async function installProvider(
  auth: RunningAuth,
  settings: SingleSignOnSettings | undefined,
) {
  // The plugin's init takes better-auth's general context; this auth's is a narrower one of it.
  const context = (await auth.$context) as AuthContext
  const config = settings ? providerConfig(settings) : undefined
  // Built apart from the running providers (init reads them only to warn about a shadowed id).
  const apart = { ...context, socialProviders: [] }
  const built = config ? await genericOAuth({ config: [config] }).init(apart) : undefined
  const provider = built?.context.socialProviders.find(
    (candidate) => candidate.id === singleSignOnProviderId,
  )
  const pending = pendingDiscoveryOf(context)
  pending?.delete(singleSignOnProviderId)
  const index = context.socialProviders.findIndex(
    (candidate) => candidate.id === singleSignOnProviderId,
  )
  if (provider && index >= 0) context.socialProviders.splice(index, 1, provider)
  else if (index >= 0) context.socialProviders.splice(index, 1)
  else if (provider) context.socialProviders.unshift(provider)
  if (config && !provider) pending?.set(singleSignOnProviderId, config)
  return provider !== undefined
}

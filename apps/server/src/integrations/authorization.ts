import { createHash, randomBytes } from 'node:crypto'
import { integrationConnections, oauthStates } from '@sprout/db/schema/integrations.ts'
import {
  type CreateOAuthStateResponse,
  INTEGRATION_ERROR_MESSAGES,
  OAUTH_CALLBACK_QUERY,
} from '@sprout/protocol/api/integrations.ts'
import { and, eq, isNull, lt } from 'drizzle-orm'
import { findMembership } from '../organizations/service.ts'
import {
  clientSecretOf,
  type DefinitionRow,
  findDefinition,
  type IntegrationDeps,
  redirectUriOf,
  requireDefinition,
} from './definitions.ts'
import {
  buildAuthorizationUrl,
  createPkcePair,
  exchangeCode,
  type OAuthEndpoints,
  OAuthRefusal,
} from './oauth-client.ts'
import { connectionOwner, seal, stateOwner, unseal } from './sealing.ts'

/** A state is good for 10 minutes, once (docs/product/integrations.md "Connect"). */
export const STATE_TTL_MS = 10 * 60 * 1000

const hashState = (state: string) => createHash('sha256').update(state).digest('hex')

export function endpointsOf(deps: IntegrationDeps, row: DefinitionRow): OAuthEndpoints {
  return {
    clientId: row.clientId,
    clientSecret: clientSecretOf(deps.keyring, row),
    authUrl: row.authUrl,
    tokenUrl: row.tokenUrl,
    revokeUrl: row.revokeUrl,
  }
}

/**
 * POST /api/oauth/state: a random state, bound server-side to the user, organization,
 * integration and PKCE verifier (only its hash is stored), and the URL to send the browser to.
 */
export async function startAuthorization(
  deps: IntegrationDeps,
  caller: { userId: string; organizationId: string },
  serviceName: string,
): Promise<CreateOAuthStateResponse> {
  const row = await requireDefinition(deps.db, serviceName)
  const state = randomBytes(32).toString('base64url')
  const stateHash = hashState(state)
  const { codeVerifier, codeChallenge } = await createPkcePair()
  // Expired states are of no use to anyone: each new one sweeps them.
  await deps.db.delete(oauthStates).where(lt(oauthStates.expiresAt, new Date()))
  await deps.db.insert(oauthStates).values({
    stateHash,
    userId: caller.userId,
    organizationId: caller.organizationId,
    serviceName,
    codeVerifier: seal(deps.keyring, stateOwner(stateHash), 'code_verifier', codeVerifier),
    expiresAt: new Date(Date.now() + STATE_TTL_MS),
  })
  return {
    state,
    authorization_url: buildAuthorizationUrl({
      authUrl: row.authUrl,
      clientId: row.clientId,
      redirectUri: redirectUriOf(deps.publicUrl, serviceName),
      state,
      scopes: row.scopes,
      additionalParams: row.additionalParams,
      codeChallenge,
    }),
  }
}

const settingsWith = (name: string, value: string) =>
  `/settings?${new URLSearchParams({ [name]: value }).toString()}`
const failure = (text: string) => settingsWith(OAUTH_CALLBACK_QUERY.error, text)

/**
 * Takes the state once (a replay finds it used) and checks it is fresh, for this integration
 * and for the signed-in user who asked for it (so nobody can plant their grant in another's
 * organization, or another's in theirs).
 */
async function takeState(
  deps: IntegrationDeps,
  state: string | null,
  serviceName: string,
  sessionUserId: string | undefined,
) {
  if (!state) return undefined
  const stateHash = hashState(state)
  const [row] = await deps.db
    .update(oauthStates)
    .set({ usedAt: new Date() })
    .where(and(eq(oauthStates.stateHash, stateHash), isNull(oauthStates.usedAt)))
    .returning()
  if (!row) return undefined
  if (row.expiresAt.getTime() < Date.now()) return undefined
  if (row.serviceName !== serviceName || row.userId !== sessionUserId) return undefined
  // Someone who left the organization since clicking Connect no longer connects it.
  if (!(await findMembership({ db: deps.db, userId: row.userId }, row.organizationId))) {
    return undefined
  }
  const owner = stateOwner(stateHash)
  return { ...row, codeVerifier: unseal(deps.keyring, owner, 'code_verifier', row.codeVerifier) }
}

/**
 * GET /api/oauth/callback/{service}: where to send the browser. A denied consent, a bad,
 * expired or replayed state, a wrong `iss` or a failed exchange store nothing and say why.
 */
export async function completeAuthorization(
  deps: IntegrationDeps,
  serviceName: string,
  query: URLSearchParams,
  sessionUserId: string | undefined,
): Promise<string> {
  const taken = await takeState(deps, query.get('state'), serviceName, sessionUserId)
  if (!taken) return failure(INTEGRATION_ERROR_MESSAGES.badState)
  const definition = await findDefinition(deps.db, serviceName)
  if (!definition) return failure(INTEGRATION_ERROR_MESSAGES.notFound(serviceName))
  const name = definition.displayName
  if (query.get('error') === 'access_denied') {
    return failure(INTEGRATION_ERROR_MESSAGES.consentDenied(name))
  }
  let tokens: Awaited<ReturnType<typeof exchangeCode>>
  try {
    tokens = await exchangeCode(
      endpointsOf(deps, definition),
      query,
      redirectUriOf(deps.publicUrl, serviceName),
      taken.codeVerifier,
    )
  } catch (error) {
    const reason = error instanceof OAuthRefusal ? error.message : (error as Error).message
    console.error(`[integrations] connecting ${serviceName} failed: ${reason}`)
    return failure(INTEGRATION_ERROR_MESSAGES.exchangeFailed(name))
  }
  const owner = connectionOwner(taken.organizationId, serviceName)
  const values = {
    accessToken: seal(deps.keyring, owner, 'access_token', tokens.accessToken),
    refreshToken: tokens.refreshToken
      ? seal(deps.keyring, owner, 'refresh_token', tokens.refreshToken)
      : null,
    expiresAt: tokens.expiresAt,
    scopes: tokens.scopes ?? definition.scopes,
    needsReconnect: false,
    connectedBy: taken.userId,
    updatedAt: new Date(),
  }
  await deps.db
    .insert(integrationConnections)
    .values({ organizationId: taken.organizationId, serviceName, ...values })
    .onConflictDoUpdate({
      target: [integrationConnections.organizationId, integrationConnections.serviceName],
      set: values,
    })
  return settingsWith(OAUTH_CALLBACK_QUERY.connected, serviceName)
}

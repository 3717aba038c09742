import type { Database } from '@sprout/db/database.ts'
import { integrationConnections, integrationDefinitions } from '@sprout/db/schema/integrations.ts'
import { INTEGRATION_ERROR_MESSAGES, type Integration } from '@sprout/protocol/api/integrations.ts'
import { and, asc, eq } from 'drizzle-orm'
import { AppError, conflict, notFound } from '../http/app-error.ts'
import { endpointsOf } from './authorization.ts'
import { type IntegrationDeps, presetOf, redirectUriOf, requireDefinition } from './definitions.ts'
import { OAuthRefusal, refreshTokens, revokeToken } from './oauth-client.ts'
import { connectionOwner, seal, unseal } from './sealing.ts'

export { completeAuthorization, startAuthorization } from './authorization.ts'
export type { IntegrationDeps } from './definitions.ts'

/**
 * The hosts Sprout itself may send an integration's access token to (a Push to Git): those of its
 * authorization and token URLs, the service it was given for (docs/product/versions.md "Push to
 * Git"). 404 when no such integration is defined.
 */
export async function integrationHosts(db: Database, serviceName: string): Promise<string[]> {
  const definition = await requireDefinition(db, serviceName)
  const hosts = [definition.authUrl, definition.tokenUrl].map((url) => new URL(url).hostname)
  return [...new Set(hosts)]
}

/** A token this close to its expiry is refreshed first: it may expire on its way. */
const EXPIRY_MARGIN_MS = 60_000

/** GET /api/integrations: every definition, with the organization's connection (and no other's). */
export async function listIntegrations(
  deps: IntegrationDeps,
  organizationId: string,
): Promise<Integration[]> {
  const rows = await deps.db
    .select({ definition: integrationDefinitions, connection: integrationConnections })
    .from(integrationDefinitions)
    .leftJoin(
      integrationConnections,
      and(
        eq(integrationConnections.serviceName, integrationDefinitions.serviceName),
        eq(integrationConnections.organizationId, organizationId),
      ),
    )
    .orderBy(asc(integrationDefinitions.serviceName))
  return rows.map(({ definition, connection }) => ({
    id: definition.serviceName,
    service_name: definition.serviceName,
    display_name: definition.displayName,
    scopes: definition.scopes,
    connected: connection !== null && !connection.needsReconnect,
    needs_reconnect: connection?.needsReconnect ?? false,
    client_id: definition.clientId,
    redirect_uri: redirectUriOf(deps.publicUrl, definition.serviceName),
    auth_url: definition.authUrl,
    additional_params: definition.additionalParams,
    preset: presetOf(definition),
    picker_script_url:
      presetOf(definition) === 'google-sheets' ? (deps.pickerScriptUrl ?? null) : null,
  }))
}

async function findConnection(deps: IntegrationDeps, organizationId: string, serviceName: string) {
  const [row] = await deps.db
    .select()
    .from(integrationConnections)
    .where(
      and(
        eq(integrationConnections.organizationId, organizationId),
        eq(integrationConnections.serviceName, serviceName),
      ),
    )
  return row
}

async function requireConnection(deps: IntegrationDeps, organizationId: string, service: string) {
  await requireDefinition(deps.db, service)
  const row = await findConnection(deps, organizationId, service)
  if (!row) throw notFound(INTEGRATION_ERROR_MESSAGES.notConnected(service))
  return row
}

type ConnectionRow = NonNullable<Awaited<ReturnType<typeof findConnection>>>
export type FreshAccessToken = { accessToken: string; expiresAt: Date | null }

/** Short-lived tokens (a lifetime under two minutes) are refreshed in their second half instead. */
function isFresh(row: ConnectionRow): boolean {
  if (row.expiresAt === null) return true
  const lifetime = row.expiresAt.getTime() - row.updatedAt.getTime()
  const margin = Math.min(EXPIRY_MARGIN_MS, Math.max(0, lifetime) / 2)
  return row.expiresAt.getTime() - margin > Date.now()
}

/**
 * A usable access token of the organization's connection, refreshed (rotated refresh token stored)
 * within a minute of expiry; a refused refresh marks it for reconnection. AppError: 404 not
 * connected, 409 needs reconnection, 502 authorization server unreachable.
 */
export async function freshAccessToken(
  deps: IntegrationDeps,
  organizationId: string,
  serviceName: string,
): Promise<FreshAccessToken> {
  const row = await requireConnection(deps, organizationId, serviceName)
  if (row.needsReconnect) throw conflict(INTEGRATION_ERROR_MESSAGES.needsReconnect(serviceName))
  const owner = connectionOwner(organizationId, serviceName)
  if (isFresh(row)) {
    const accessToken = unseal(deps.keyring, owner, 'access_token', row.accessToken)
    return { accessToken, expiresAt: row.expiresAt }
  }
  return deps.refreshFlights.run(`${organizationId}\n${serviceName}`, (db) =>
    refreshConnection({ ...deps, db }, organizationId, serviceName),
  )
}

async function markNeedsReconnect(deps: IntegrationDeps, row: ConnectionRow) {
  await deps.db
    .update(integrationConnections)
    .set({ needsReconnect: true, updatedAt: new Date() })
    .where(
      and(
        eq(integrationConnections.organizationId, row.organizationId),
        eq(integrationConnections.serviceName, row.serviceName),
        eq(integrationConnections.updatedAt, row.updatedAt),
      ),
    )
}

/** Under the connection's refresh lock (`deps.db` is the locked connection). */
async function refreshConnection(
  deps: IntegrationDeps,
  organizationId: string,
  serviceName: string,
): Promise<FreshAccessToken> {
  const owner = connectionOwner(organizationId, serviceName)
  // Read again under the lock: another process may have refreshed it while this one waited.
  const row = await requireConnection(deps, organizationId, serviceName)
  if (row.needsReconnect) throw conflict(INTEGRATION_ERROR_MESSAGES.needsReconnect(serviceName))
  if (isFresh(row)) {
    const accessToken = unseal(deps.keyring, owner, 'access_token', row.accessToken)
    return { accessToken, expiresAt: row.expiresAt }
  }
  if (!row.refreshToken) {
    await markNeedsReconnect(deps, row)
    throw conflict(INTEGRATION_ERROR_MESSAGES.needsReconnect(serviceName))
  }
  const definition = await requireDefinition(deps.db, serviceName)
  const refreshToken = unseal(deps.keyring, owner, 'refresh_token', row.refreshToken)
  let tokens: Awaited<ReturnType<typeof refreshTokens>>
  try {
    tokens = await refreshTokens(endpointsOf(deps, definition), refreshToken)
  } catch (error) {
    if (!(error instanceof OAuthRefusal)) {
      console.error(`[integrations] refreshing ${serviceName} failed: ${(error as Error).message}`)
      throw new AppError(502, INTEGRATION_ERROR_MESSAGES.tokenFailed)
    }
    // Someone may have refreshed it outside Sprout's lock (the old token is then refused).
    const current = await findConnection(deps, organizationId, serviceName)
    if (current && !current.needsReconnect && isFresh(current)) {
      const accessToken = unseal(deps.keyring, owner, 'access_token', current.accessToken)
      return { accessToken, expiresAt: current.expiresAt }
    }
    console.error(`[integrations] ${serviceName} refused the refresh: ${error.message}`)
    await markNeedsReconnect(deps, row)
    throw conflict(INTEGRATION_ERROR_MESSAGES.needsReconnect(serviceName))
  }
  await deps.db
    .update(integrationConnections)
    .set({
      accessToken: seal(deps.keyring, owner, 'access_token', tokens.accessToken),
      // Rotation (RFC 9700 4.14.2): the new refresh token replaces the old, which is now spent.
      ...(tokens.refreshToken
        ? { refreshToken: seal(deps.keyring, owner, 'refresh_token', tokens.refreshToken) }
        : {}),
      expiresAt: tokens.expiresAt,
      ...(tokens.scopes ? { scopes: tokens.scopes } : {}),
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(integrationConnections.organizationId, organizationId),
        eq(integrationConnections.serviceName, serviceName),
      ),
    )
  return { accessToken: tokens.accessToken, expiresAt: tokens.expiresAt }
}

/**
 * DELETE /api/integrations/{service}: revokes at the revoke URL when there is one (RFC 7009;
 * the refresh token, which ends the grant, then the access token), then deletes the tokens.
 * A failed revocation keeps them, so Disconnect can be tried again.
 */
export async function disconnect(
  deps: IntegrationDeps,
  organizationId: string,
  serviceName: string,
): Promise<void> {
  const row = await requireConnection(deps, organizationId, serviceName)
  const definition = await requireDefinition(deps.db, serviceName)
  const revokeUrl = definition.revokeUrl
  if (revokeUrl) {
    const owner = connectionOwner(organizationId, serviceName)
    const endpoints = { ...endpointsOf(deps, definition), revokeUrl }
    try {
      if (row.refreshToken) {
        const refreshToken = unseal(deps.keyring, owner, 'refresh_token', row.refreshToken)
        await revokeToken(endpoints, refreshToken, 'refresh_token')
      }
      const accessToken = unseal(deps.keyring, owner, 'access_token', row.accessToken)
      await revokeToken(endpoints, accessToken, 'access_token')
    } catch (error) {
      console.error(`[integrations] revoking ${serviceName} failed: ${(error as Error).message}`)
      throw new AppError(502, INTEGRATION_ERROR_MESSAGES.revokeFailed)
    }
  }
  await deps.db
    .delete(integrationConnections)
    .where(
      and(
        eq(integrationConnections.organizationId, organizationId),
        eq(integrationConnections.serviceName, serviceName),
      ),
    )
}

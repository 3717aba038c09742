import type { Database } from '@sprout/db/database.ts'
import { integrationConnections, integrationDefinitions } from '@sprout/db/schema/integrations.ts'
import {
  type AdminIntegration,
  checkIntegrationForm,
  findIntegrationPreset,
  INTEGRATION_ERROR_MESSAGES,
  type IntegrationPresetId,
  integrationFormFields,
  integrationPresetIds,
  type SaveIntegrationRequest,
} from '@sprout/protocol/api/integrations.ts'
import { asc, eq } from 'drizzle-orm'
import { badRequest, conflict, notFound } from '../http/app-error.ts'
import type { VaultKeyring } from '../sealing/master-keys.ts'
import type { RefreshFlights } from './refresh-flights.ts'
import { definitionOwner, seal, unseal } from './sealing.ts'

/** What the integrations area needs: the database, the vault's keys, where callbacks land. */
export type IntegrationDeps = {
  db: Database
  keyring: VaultKeyring
  publicUrl: string
  /** GOOGLE_PICKER_SCRIPT_URL, given to the spreadsheet preset's entries. */
  pickerScriptUrl?: string
  /** One token refresh per connection at a time, across processes (decision 031). */
  refreshFlights: RefreshFlights
}

export type DefinitionRow = typeof integrationDefinitions.$inferSelect

/** Each integration has its own redirect URI (a mix-up defence; decision 018). */
export function redirectUriOf(publicUrl: string, serviceName: string): string {
  return `${publicUrl}/api/oauth/callback/${encodeURIComponent(serviceName)}`
}

export async function findDefinition(db: Database, serviceName: string) {
  const [row] = await db
    .select()
    .from(integrationDefinitions)
    .where(eq(integrationDefinitions.serviceName, serviceName))
  return row
}

export async function requireDefinition(db: Database, serviceName: string) {
  const row = await findDefinition(db, serviceName)
  if (!row) throw notFound(INTEGRATION_ERROR_MESSAGES.notFound(serviceName))
  return row
}

export function clientSecretOf(keyring: VaultKeyring, row: DefinitionRow): string {
  return unseal(keyring, definitionOwner(row.serviceName), 'client_secret', row.clientSecret)
}

export function presetOf(row: DefinitionRow): IntegrationPresetId | null {
  return (integrationPresetIds as readonly string[]).includes(row.preset ?? '')
    ? (row.preset as IntegrationPresetId)
    : null
}

/** The admin view: never the client secret, only that there is one. */
function toAdminIntegration(publicUrl: string, row: DefinitionRow): AdminIntegration {
  return {
    service_name: row.serviceName,
    display_name: row.displayName,
    client_id: row.clientId,
    has_client_secret: true,
    auth_url: row.authUrl,
    token_url: row.tokenUrl,
    revoke_url: row.revokeUrl,
    scopes: row.scopes,
    additional_params: row.additionalParams,
    preset: presetOf(row),
    redirect_uri: redirectUriOf(publicUrl, row.serviceName),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }
}

export async function listDefinitions(deps: IntegrationDeps): Promise<AdminIntegration[]> {
  const rows = await deps.db
    .select()
    .from(integrationDefinitions)
    .orderBy(asc(integrationDefinitions.serviceName))
  return rows.map((row) => toAdminIntegration(deps.publicUrl, row))
}

const hasScopes = (scopes: string | readonly string[] | undefined) =>
  typeof scopes === 'string' ? scopes.trim() !== '' : (scopes?.length ?? 0) > 0

/** The form's rules, on the server, with the form's texts (one 400 naming every problem). */
function checkForm(input: SaveIntegrationRequest, mode: 'create' | 'edit') {
  // A preset fills what the caller left out: `{preset, client_id, client_secret}` is enough.
  const preset = findIntegrationPreset(input.preset)
  const orPreset = <Value>(given: Value | null | undefined, fallback: Value | undefined) =>
    given === undefined || given === null || given === '' ? fallback : given
  const checked = checkIntegrationForm(
    {
      service_name: orPreset(input.service_name, preset?.service_name) ?? '',
      display_name: orPreset(input.display_name, preset?.display_name),
      client_id: input.client_id ?? '',
      client_secret: input.client_secret,
      auth_url: orPreset(input.auth_url, preset?.auth_url) ?? '',
      token_url: orPreset(input.token_url, preset?.token_url) ?? '',
      revoke_url: input.revoke_url === undefined ? preset?.revoke_url : input.revoke_url,
      scopes: hasScopes(input.scopes) ? (input.scopes ?? []) : (preset?.scopes ?? []),
      additional_params: input.additional_params ?? preset?.additional_params,
      preset: input.preset,
    },
    mode,
  )
  if (!checked.ok) {
    const texts = integrationFormFields.flatMap((field) => checked.problems[field] ?? [])
    throw badRequest(texts.join('; '))
  }
  return checked.definition
}

export async function createDefinition(
  deps: IntegrationDeps,
  input: SaveIntegrationRequest,
): Promise<AdminIntegration> {
  const definition = checkForm(input, 'create')
  const owner = definitionOwner(definition.service_name)
  const [row] = await deps.db
    .insert(integrationDefinitions)
    .values({
      serviceName: definition.service_name,
      displayName: definition.display_name,
      clientId: definition.client_id,
      clientSecret: seal(deps.keyring, owner, 'client_secret', definition.client_secret ?? ''),
      authUrl: definition.auth_url,
      tokenUrl: definition.token_url,
      revokeUrl: definition.revoke_url,
      scopes: definition.scopes,
      additionalParams: definition.additional_params,
      preset: definition.preset,
    })
    .onConflictDoNothing()
    .returning()
  if (!row) {
    throw conflict(`An integration named "${definition.service_name}" exists already: edit it`)
  }
  return toAdminIntegration(deps.publicUrl, row)
}

// docs/product/admin.md "Integrations tab", word for word.
export const SECRET_FOR_NEW_HOST =
  'The token or revoke URL is on another host now: enter the client secret again (a stored secret is sent only to the host it was given for).'

/** Where the client secret and the connections' tokens are sent: the token and revoke URLs. */
function secretOrigins(urls: { tokenUrl: string; revokeUrl: string | null }): string[] {
  return [urls.tokenUrl, urls.revokeUrl].flatMap((url) => (url ? [new URL(url).origin] : []))
}

/**
 * PUT: the service name is the path's (it cannot change); a blank secret keeps the stored one,
 * but only while the token and revoke URLs stay on their origins: moved, the secret must be
 * given again and every organization's connection is dropped (its tokens were issued for the old
 * host), so no edit sends them to a host of the editor's choosing (issue 29, item 1).
 */
export async function updateDefinition(
  deps: IntegrationDeps,
  serviceName: string,
  input: SaveIntegrationRequest,
): Promise<AdminIntegration> {
  const existing = await requireDefinition(deps.db, serviceName)
  const given = (input.service_name ?? '').trim()
  if (given !== '' && given !== serviceName) {
    throw badRequest('Service name cannot be changed: add a new integration instead')
  }
  const definition = checkForm({ ...input, service_name: serviceName }, 'edit')
  const before = new Set(secretOrigins(existing))
  const after = secretOrigins({ tokenUrl: definition.token_url, revokeUrl: definition.revoke_url })
  const moved = after.some((origin) => !before.has(origin))
  if (moved && !definition.client_secret) throw badRequest(SECRET_FOR_NEW_HOST)
  const owner = definitionOwner(serviceName)
  const values = {
    displayName: input.display_name?.trim() ? definition.display_name : existing.displayName,
    clientId: definition.client_id,
    clientSecret: definition.client_secret
      ? seal(deps.keyring, owner, 'client_secret', definition.client_secret)
      : existing.clientSecret,
    authUrl: definition.auth_url,
    tokenUrl: definition.token_url,
    revokeUrl: definition.revoke_url,
    scopes: definition.scopes,
    additionalParams: definition.additional_params,
    preset: definition.preset ?? existing.preset,
    updatedAt: new Date(),
  }
  const row = await deps.db.transaction(async (transaction) => {
    if (moved) {
      await transaction
        .delete(integrationConnections)
        .where(eq(integrationConnections.serviceName, serviceName))
    }
    const [updated] = await transaction
      .update(integrationDefinitions)
      .set(values)
      .where(eq(integrationDefinitions.serviceName, serviceName))
      .returning()
    return updated
  })
  if (!row) throw notFound(INTEGRATION_ERROR_MESSAGES.notFound(serviceName))
  return toAdminIntegration(deps.publicUrl, row)
}

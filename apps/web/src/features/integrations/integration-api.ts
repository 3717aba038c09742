import {
  type AdminIntegration,
  adminIntegrationListSchema,
  type CreateOAuthStateResponse,
  createOAuthStateResponseSchema,
  type Integration,
  type IntegrationDefinitionInput,
  type IntegrationPreset,
  type IntegrationTokenResponse,
  integrationListSchema,
  integrationPresetListSchema,
  integrationTokenResponseSchema,
  type SaveIntegrationRequest,
} from '@sprout/protocol/api/integrations.ts'
import { apiRequest } from '../../lib/api-client.ts'

/** The calls of docs/product/integrations.md "Calls" and docs/product/admin.md "Integrations tab". */

const servicePath = (service: string) => encodeURIComponent(service)

export const integrationsQueryKey = ['integrations'] as const
export const adminIntegrationsQueryKey = ['admin', 'integrations'] as const

/** The organization's integrations (the current organization's `Organization-ID`). */
export async function listIntegrations(): Promise<Integration[]> {
  return integrationListSchema.parse(await apiRequest('/api/integrations'))
}

/** A one-time state for the consent redirect; the browser then goes to `authorization_url`. */
export async function startConnection(service: string): Promise<CreateOAuthStateResponse> {
  const answer = await apiRequest('/api/oauth/state', {
    method: 'POST',
    body: { integration_name: service },
  })
  return createOAuthStateResponseSchema.parse(answer)
}

export async function disconnectIntegration(service: string): Promise<void> {
  await apiRequest(`/api/integrations/${servicePath(service)}`, { method: 'DELETE' })
}

export async function integrationToken(service: string): Promise<IntegrationTokenResponse> {
  const answer = await apiRequest(`/api/integrations/${servicePath(service)}/token`)
  return integrationTokenResponseSchema.parse(answer)
}

export async function listAdminIntegrations(): Promise<AdminIntegration[]> {
  const answer = await apiRequest('/api/admin/integrations', { organizationId: null })
  return adminIntegrationListSchema.parse(answer)
}

export async function listIntegrationPresets(): Promise<IntegrationPreset[]> {
  const answer = await apiRequest('/api/admin/integrations/presets', { organizationId: null })
  return integrationPresetListSchema.parse(answer)
}

/** POST on create, PUT on edit; a blank secret is left out so the stored one is kept. */
export async function saveAdminIntegration(
  mode: 'create' | 'edit',
  definition: IntegrationDefinitionInput,
): Promise<void> {
  const { client_secret, ...rest } = definition
  const body: SaveIntegrationRequest = client_secret ? { ...rest, client_secret } : rest
  await apiRequest(
    mode === 'create'
      ? '/api/admin/integrations'
      : `/api/admin/integrations/${servicePath(definition.service_name)}`,
    { method: mode === 'create' ? 'POST' : 'PUT', body, organizationId: null },
  )
}

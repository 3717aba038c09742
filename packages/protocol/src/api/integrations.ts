// Long file: one contract shared by the admin form, the server and the apps: rules, presets, bodies.
import { z } from 'zod'
import { boundedText, ID_MAX, idText, maxText, URL_MAX } from './input-limits.ts'

/**
 * Integrations (docs/product/integrations.md, docs/product/admin.md "Integrations tab",
 * decision 018): the admin's definitions, their form rules (checked by the form and again by
 * the server, same texts), the three presets, and the calls' bodies.
 */

export const integrationPresetIds = ['linear', 'google-sheets', 'hubspot'] as const
export const integrationPresetIdSchema = z.enum(integrationPresetIds)
export type IntegrationPresetId = z.infer<typeof integrationPresetIdSchema>

/** A preset fills the URLs, scopes and parameters; the admin pastes a client id and secret. */
export const integrationPresetSchema = z.object({
  preset: integrationPresetIdSchema,
  service_name: z.string(),
  display_name: z.string(),
  description: z.string(),
  auth_url: z.string(),
  token_url: z.string(),
  revoke_url: z.string().nullable(),
  scopes: z.array(z.string()),
  additional_params: z.record(z.string(), z.string()),
})
export type IntegrationPreset = z.infer<typeof integrationPresetSchema>

export const INTEGRATION_PRESETS: readonly IntegrationPreset[] = [
  {
    preset: 'linear',
    service_name: 'linear',
    display_name: 'Linear',
    description: 'Project tracking',
    auth_url: 'https://linear.app/oauth/authorize',
    token_url: 'https://api.linear.app/oauth/token',
    revoke_url: 'https://api.linear.app/oauth/revoke',
    scopes: ['read', 'write'],
    additional_params: {},
  },
  {
    preset: 'google-sheets',
    service_name: 'google-sheets',
    display_name: 'Google Sheets',
    description: 'Spreadsheets',
    auth_url: 'https://accounts.google.com/o/oauth2/v2/auth',
    token_url: 'https://oauth2.googleapis.com/token',
    revoke_url: 'https://oauth2.googleapis.com/revoke',
    scopes: ['https://www.googleapis.com/auth/drive.file'],
    // A refresh token is only issued with offline access, and again only on consent.
    additional_params: { access_type: 'offline', prompt: 'consent' },
  },
  {
    preset: 'hubspot',
    service_name: 'hubspot',
    display_name: 'HubSpot',
    description: 'CRM',
    auth_url: 'https://app.hubspot.com/oauth/authorize',
    token_url: 'https://api.hubapi.com/oauth/v1/token',
    revoke_url: null,
    scopes: ['crm.objects.contacts.read', 'crm.objects.contacts.write', 'oauth'],
    additional_params: {},
  },
]

export function findIntegrationPreset(
  id: string | null | undefined,
): IntegrationPreset | undefined {
  return INTEGRATION_PRESETS.find((preset) => preset.preset === id)
}

/** The form's texts (docs/product/admin.md "Integrations tab"); the server answers the same. */
export const INTEGRATION_FORM_MESSAGES = {
  serviceNameRequired: 'Service name is required',
  serviceNameFormat:
    "Service name may use lowercase letters, digits, '-' and '_', starting with a letter (at most 64)",
  clientIdRequired: 'Client ID is required',
  clientSecretRequired: 'Client Secret is required',
  authUrlRequired: 'Auth URL is required',
  tokenUrlRequired: 'Token URL is required',
  invalidUrl: 'Invalid URL format',
  insecureUrl: 'Use an https:// URL (http:// only for localhost)',
  invalidJson: 'Invalid JSON format',
  reservedParameter: (name: string) =>
    `Additional parameters cannot set "${name}": Sprout sets it for every authorization`,
} as const

export const INTEGRATION_DISPLAY_NAME_MAX = 100
export const INTEGRATION_CLIENT_ID_MAX = 1000
export const INTEGRATION_CLIENT_SECRET_MAX = 4096
export const INTEGRATION_SCOPE_MAX = 200
export const INTEGRATION_SCOPES_MAX = 100
/** The additional parameters, as JSON text. */
export const INTEGRATION_PARAMS_MAX = 8192

export const SERVICE_NAME_PATTERN = /^[a-z][a-z0-9_-]{0,63}$/

/** Parameters Sprout itself puts in the authorization URL; additional_params may not replace them. */
export const RESERVED_AUTHORIZATION_PARAMETERS: ReadonlySet<string> = new Set([
  'response_type',
  'client_id',
  'redirect_uri',
  'state',
  'scope',
  'code_challenge',
  'code_challenge_method',
])

/** 'a, b,,c ' → ['a', 'b', 'c']: comma-separated, trimmed, blanks dropped. */
export function parseScopes(text: string): string[] {
  return text
    .split(',')
    .map((scope) => scope.trim())
    .filter((scope) => scope !== '')
}

/** An http(s) URL; plain http only for loopback hosts (tests, a local authorization server). */
function urlProblem(text: string): string | undefined {
  let url: URL
  try {
    url = new URL(text.trim())
  } catch {
    return INTEGRATION_FORM_MESSAGES.invalidUrl
  }
  if (url.protocol === 'https:') return undefined
  if (url.protocol !== 'http:') return INTEGRATION_FORM_MESSAGES.invalidUrl
  return isLoopbackHost(url.hostname) ? undefined : INTEGRATION_FORM_MESSAGES.insecureUrl
}

export function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname === '[::1]' ||
    hostname === '::1' ||
    /^127(\.\d{1,3}){3}$/.test(hostname)
  )
}

/**
 * Additional parameters: a JSON object (text from the form, or already an object) whose values
 * are strings, numbers or booleans; they become query parameters of the authorization URL.
 */
export function parseAdditionalParams(
  input: string | Record<string, unknown> | null | undefined,
): { params: Record<string, string> } | { problem: string } {
  let value: unknown = input ?? {}
  if (typeof value === 'string') {
    if (value.trim() === '') return { params: {} }
    try {
      value = JSON.parse(value)
    } catch {
      return { problem: INTEGRATION_FORM_MESSAGES.invalidJson }
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { problem: INTEGRATION_FORM_MESSAGES.invalidJson }
  }
  const params: Record<string, string> = {}
  for (const [name, entry] of Object.entries(value)) {
    if (typeof entry !== 'string' && typeof entry !== 'number' && typeof entry !== 'boolean') {
      return { problem: INTEGRATION_FORM_MESSAGES.invalidJson }
    }
    if (RESERVED_AUTHORIZATION_PARAMETERS.has(name)) {
      return { problem: INTEGRATION_FORM_MESSAGES.reservedParameter(name) }
    }
    params[name] = String(entry)
  }
  return { params }
}

export const integrationFormFields = [
  'service_name',
  'display_name',
  'client_id',
  'client_secret',
  'auth_url',
  'token_url',
  'revoke_url',
  'scopes',
  'additional_params',
] as const
export type IntegrationFormField = (typeof integrationFormFields)[number]
export type IntegrationFormProblems = Partial<Record<IntegrationFormField, string>>

/**
 * What the admin typed (the form) or sent (POST/PUT): scopes as comma-separated text or a
 * list, additional parameters as JSON text or an object.
 */
export type IntegrationFormValues = {
  service_name: string
  display_name?: string | null
  client_id: string
  client_secret?: string | null
  auth_url: string
  token_url: string
  revoke_url?: string | null
  scopes: string | readonly string[]
  additional_params?: string | Record<string, unknown> | null
  preset?: IntegrationPresetId | null
}

/** The definition once the rules pass: trimmed, scopes a list, parameters an object. */
export type IntegrationDefinitionInput = {
  service_name: string
  display_name: string
  client_id: string
  /** undefined on edit: keep the stored one. */
  client_secret: string | undefined
  auth_url: string
  token_url: string
  revoke_url: string | null
  scopes: string[]
  additional_params: Record<string, string>
  preset: IntegrationPresetId | null
}

/** Checks the form (mode 'create' or 'edit'): every field's first problem, or the definition. */
export function checkIntegrationForm(
  values: IntegrationFormValues,
  mode: 'create' | 'edit',
):
  | { ok: true; definition: IntegrationDefinitionInput }
  | { ok: false; problems: IntegrationFormProblems } {
  const problems: IntegrationFormProblems = {}
  const serviceName = values.service_name.trim()
  if (serviceName === '') problems.service_name = INTEGRATION_FORM_MESSAGES.serviceNameRequired
  else if (!SERVICE_NAME_PATTERN.test(serviceName)) {
    problems.service_name = INTEGRATION_FORM_MESSAGES.serviceNameFormat
  }
  const clientId = values.client_id.trim()
  if (clientId === '') problems.client_id = INTEGRATION_FORM_MESSAGES.clientIdRequired
  const clientSecret = (values.client_secret ?? '').trim()
  if (mode === 'create' && clientSecret === '') {
    problems.client_secret = INTEGRATION_FORM_MESSAGES.clientSecretRequired
  }
  const authUrl = values.auth_url.trim()
  if (authUrl === '') problems.auth_url = INTEGRATION_FORM_MESSAGES.authUrlRequired
  else {
    const problem = urlProblem(authUrl)
    if (problem) problems.auth_url = problem
  }
  const tokenUrl = values.token_url.trim()
  if (tokenUrl === '') problems.token_url = INTEGRATION_FORM_MESSAGES.tokenUrlRequired
  else {
    const problem = urlProblem(tokenUrl)
    if (problem) problems.token_url = problem
  }
  const revokeUrl = (values.revoke_url ?? '').trim()
  if (revokeUrl !== '') {
    const problem = urlProblem(revokeUrl)
    if (problem) problems.revoke_url = problem
  }
  const scopes =
    typeof values.scopes === 'string'
      ? parseScopes(values.scopes)
      : values.scopes.map((scope) => scope.trim()).filter((scope) => scope !== '')
  const params = parseAdditionalParams(values.additional_params)
  if ('problem' in params) problems.additional_params = params.problem
  if (Object.keys(problems).length > 0 || 'problem' in params) return { ok: false, problems }
  const displayName = (values.display_name ?? '').trim()
  return {
    ok: true,
    definition: {
      service_name: serviceName,
      display_name:
        displayName !== ''
          ? displayName
          : (findIntegrationPreset(values.preset)?.display_name ?? serviceName),
      client_id: clientId,
      client_secret: clientSecret === '' ? undefined : clientSecret,
      auth_url: authUrl,
      token_url: tokenUrl,
      revoke_url: revokeUrl === '' ? null : revokeUrl,
      scopes,
      additional_params: params.params,
      preset: values.preset ?? null,
    },
  }
}

/** The body of POST /api/admin/integrations and PUT /api/admin/integrations/{service}. */
export const saveIntegrationRequestSchema = z.object({
  service_name: boundedText(ID_MAX).default(''),
  display_name: boundedText(INTEGRATION_DISPLAY_NAME_MAX).nullish(),
  client_id: boundedText(INTEGRATION_CLIENT_ID_MAX).default(''),
  client_secret: boundedText(INTEGRATION_CLIENT_SECRET_MAX).nullish(),
  auth_url: boundedText(URL_MAX).default(''),
  token_url: boundedText(URL_MAX).default(''),
  revoke_url: boundedText(URL_MAX).nullish(),
  scopes: z
    .union([
      z.array(boundedText(INTEGRATION_SCOPE_MAX)).max(INTEGRATION_SCOPES_MAX),
      boundedText(INTEGRATION_SCOPES_MAX * INTEGRATION_SCOPE_MAX),
    ])
    .default([]),
  additional_params: z
    .union([
      z
        .record(z.string(), z.unknown())
        .refine(
          (params) => JSON.stringify(params).length <= INTEGRATION_PARAMS_MAX,
          maxText(INTEGRATION_PARAMS_MAX),
        ),
      boundedText(INTEGRATION_PARAMS_MAX),
    ])
    .nullish(),
  preset: integrationPresetIdSchema.nullish(),
})
export type SaveIntegrationRequest = z.input<typeof saveIntegrationRequestSchema>

/** An integration (admin view): the client secret is never returned, only whether one is set. */
export const adminIntegrationSchema = z.object({
  service_name: z.string(),
  display_name: z.string(),
  client_id: z.string(),
  has_client_secret: z.boolean(),
  auth_url: z.string(),
  token_url: z.string(),
  revoke_url: z.string().nullable(),
  scopes: z.array(z.string()),
  additional_params: z.record(z.string(), z.string()),
  preset: integrationPresetIdSchema.nullable(),
  redirect_uri: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
})
export type AdminIntegration = z.infer<typeof adminIntegrationSchema>
export const adminIntegrationListSchema = z.array(adminIntegrationSchema)
export const integrationPresetListSchema = z.array(integrationPresetSchema)

/** GET /api/integrations (Organization-ID): each definition and the organization's connection. */
export const integrationSchema = z.object({
  id: z.string(),
  service_name: z.string(),
  display_name: z.string(),
  scopes: z.array(z.string()),
  connected: z.boolean(),
  /** The last refresh failed (revoked or expired grant): Connect again. */
  needs_reconnect: z.boolean(),
  client_id: z.string(),
  redirect_uri: z.string(),
  auth_url: z.string(),
  additional_params: z.record(z.string(), z.string()),
  preset: integrationPresetIdSchema.nullable(),
  /** The spreadsheet preset's 'Select Files' loads the Picker API from here; null for others. */
  picker_script_url: z.string().nullable(),
})
export type Integration = z.infer<typeof integrationSchema>
export const integrationListSchema = z.array(integrationSchema)

/** POST /api/oauth/state: the browser then goes to authorization_url (PKCE included). */
export const createOAuthStateRequestSchema = z.object({ integration_name: idText() })
export const createOAuthStateResponseSchema = z.object({
  state: z.string(),
  authorization_url: z.string(),
})
export type CreateOAuthStateResponse = z.infer<typeof createOAuthStateResponseSchema>

/** GET /api/integrations/{service}/token: a fresh access token (refreshed when expired). */
export const integrationTokenResponseSchema = z.object({
  access_token: z.string(),
  expires_at: z.string().nullable(),
})
export type IntegrationTokenResponse = z.infer<typeof integrationTokenResponseSchema>

/**
 * The OAuth callback answers with a redirect to /settings carrying one of these query
 * parameters: `connected={service}` on success, `integration_error={text}` otherwise.
 */
export const OAUTH_CALLBACK_QUERY = {
  connected: 'connected',
  error: 'integration_error',
} as const

/** Texts the server puts in `integration_error` and the errors of the calls. */
export const INTEGRATION_ERROR_MESSAGES = {
  notFound: (service: string) => `No integration named "${service}"`,
  notConnected: (service: string) =>
    `${service} is not connected for this organization: connect it in Settings`,
  needsReconnect: (service: string) =>
    `${service} needs to be connected again in Settings: its authorization expired or was revoked`,
  consentDenied: (service: string) => `Access to ${service} was not granted`,
  badState: 'This connection link is invalid, expired or already used: please click Connect again',
  exchangeFailed: (service: string) =>
    `Could not complete the connection to ${service}: please try again`,
  revokeFailed: 'Failed to revoke integration. Please try again.',
  tokenFailed: 'Failed to get access token. Please try reconnecting.',
} as const

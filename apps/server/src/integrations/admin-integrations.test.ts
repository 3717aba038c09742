import { integrationDefinitions } from '@sprout/db/schema/integrations.ts'
import {
  type AdminIntegration,
  INTEGRATION_PRESETS,
  type IntegrationPreset,
} from '@sprout/protocol/api/integrations.ts'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp, type TestUser } from '../testing/app-harness.ts'
import { definitionOwner, unseal } from './sealing.ts'
import { listIntegrations } from './service.ts'

const valid = {
  service_name: 'crm',
  client_id: 'client-123',
  client_secret: 'very-secret-value',
  auth_url: 'https://crm.example.com/oauth/authorize',
  token_url: 'https://crm.example.com/oauth/token',
  revoke_url: '',
  scopes: ' contacts.read, ,contacts.write ,',
  additional_params: '{"access_type": "offline"}',
}

describe('integration definitions (admin)', { timeout: 120_000 }, () => {
  let harness: TestApp
  let admin: TestUser
  let member: TestUser

  const save = (body: unknown, method = 'POST', path = '/api/admin/integrations', user = admin) =>
    harness.request(path, { method, user, body: JSON.stringify(body) })
  const errorOf = async (response: Response) => ((await response.json()) as { error: string }).error
  const storedRow = async (serviceName: string) => {
    const [row] = await harness.database.db
      .select()
      .from(integrationDefinitions)
      .where(eq(integrationDefinitions.serviceName, serviceName))
    return row
  }
  const storedSecret = async (serviceName: string) => {
    const row = await storedRow(serviceName)
    if (!row) throw new Error('no definition')
    const { keyring } = harness.created.integrationDeps
    return unseal(keyring, definitionOwner(serviceName), 'client_secret', row.clientSecret)
  }

  beforeAll(async () => {
    harness = await createTestApp()
    admin = await harness.signUpAdmin()
    member = await harness.signUp()
  })
  afterAll(() => harness.close())

  it('refuses non-admins with 403 on every admin call', async () => {
    const calls = [
      harness.request('/api/admin/integrations', { user: member }),
      harness.request('/api/admin/integrations/presets', { user: member }),
      save(valid, 'POST', '/api/admin/integrations', member),
      save(valid, 'PUT', '/api/admin/integrations/crm', member),
    ]
    for (const response of await Promise.all(calls)) {
      expect(response.status).toBe(403)
      expect(await errorOf(response)).toBe('You do not have permission to access this resource.')
    }
  })

  it("checks the form's rules on the server, with the form's texts", async () => {
    const empty = await save({})
    expect(empty.status).toBe(400)
    expect(await errorOf(empty)).toBe(
      'Service name is required; Client ID is required; Client Secret is required; Auth URL is required; Token URL is required',
    )
    const malformed = await save({
      ...valid,
      auth_url: 'not a url',
      token_url: 'ftp://crm.example.com/token',
      revoke_url: 'nope',
      additional_params: '{not json',
    })
    expect(await errorOf(malformed)).toBe(
      'Invalid URL format; Invalid URL format; Invalid URL format; Invalid JSON format',
    )
    expect(await errorOf(await save({ ...valid, additional_params: '[1, 2]' }))).toBe(
      'Invalid JSON format',
    )
    expect(await errorOf(await save({ ...valid, auth_url: 'http://crm.example.com/a' }))).toBe(
      'Use an https:// URL (http:// only for localhost)',
    )
    expect(await errorOf(await save({ ...valid, additional_params: { state: 'x' } }))).toMatch(
      /cannot set "state"/,
    )
    expect(await errorOf(await save({ ...valid, service_name: 'Has Spaces' }))).toMatch(
      /Service name may use/,
    )
    expect(await storedRow('crm')).toBeUndefined()
  })

  it('creates a definition: scopes trimmed and blanks dropped, the secret sealed and never returned', async () => {
    const created = await save(valid)
    expect(created.status).toBe(201)
    const text = await created.text()
    expect(text).not.toContain(valid.client_secret)
    expect(JSON.parse(text)).toMatchObject({
      service_name: 'crm',
      display_name: 'crm',
      client_id: 'client-123',
      has_client_secret: true,
      revoke_url: null,
      scopes: ['contacts.read', 'contacts.write'],
      additional_params: { access_type: 'offline' },
      redirect_uri: `${harness.config.publicUrl}/api/oauth/callback/crm`,
    })
    const listed = await harness.request('/api/admin/integrations', { user: admin })
    expect(await listed.clone().text()).not.toContain(valid.client_secret)
    expect(((await listed.json()) as AdminIntegration[]).map((item) => item.service_name)).toEqual([
      'crm',
    ])
    expect(JSON.stringify(await storedRow('crm'))).not.toContain(valid.client_secret)
    expect(await storedSecret('crm')).toBe(valid.client_secret)
    expect((await save(valid)).status).toBe(409)
  })

  it('keeps the secret when an edit leaves it blank, replaces it when given', async () => {
    const edited = await save(
      { ...valid, client_secret: '', client_id: 'client-456', scopes: ['a', ' b '] },
      'PUT',
      '/api/admin/integrations/crm',
    )
    expect(edited.status, await edited.clone().text()).toBe(200)
    expect(await edited.json()).toMatchObject({ client_id: 'client-456', scopes: ['a', 'b'] })
    expect(await storedSecret('crm')).toBe(valid.client_secret)
    await save({ ...valid, client_secret: 'rotated' }, 'PUT', '/api/admin/integrations/crm')
    expect(await storedSecret('crm')).toBe('rotated')
    const renamed = await save(
      { ...valid, service_name: 'other' },
      'PUT',
      '/api/admin/integrations/crm',
    )
    expect(renamed.status).toBe(400)
    expect((await save(valid, 'PUT', '/api/admin/integrations/missing')).status).toBe(404)
  })

  it('lists the three presets, and a preset with a client id and secret is a whole definition', async () => {
    const response = await harness.request('/api/admin/integrations/presets', { user: admin })
    const presets = (await response.json()) as IntegrationPreset[]
    expect(presets.map((preset) => preset.preset)).toEqual(['linear', 'google-sheets', 'hubspot'])
    expect(presets).toEqual(INTEGRATION_PRESETS)
    const created = await save({
      preset: 'google-sheets',
      client_id: 'g-id',
      client_secret: 'g-secret',
    })
    expect(created.status, await created.clone().text()).toBe(201)
    expect(await created.json()).toMatchObject({
      service_name: 'google-sheets',
      display_name: 'Google Sheets',
      auth_url: 'https://accounts.google.com/o/oauth2/v2/auth',
      token_url: 'https://oauth2.googleapis.com/token',
      revoke_url: 'https://oauth2.googleapis.com/revoke',
      scopes: ['https://www.googleapis.com/auth/drive.file'],
      additional_params: { access_type: 'offline', prompt: 'consent' },
      preset: 'google-sheets',
    })
    // Its users' 'Select Files' loads the Picker API from GOOGLE_PICKER_SCRIPT_URL.
    const listed = await listIntegrations(harness.created.integrationDeps, 'any-organization')
    const pickerUrls = Object.fromEntries(
      listed.map((entry) => [entry.service_name, entry.picker_script_url]),
    )
    expect(pickerUrls['google-sheets']).toBe(harness.config.googlePickerScriptUrl)
    expect(pickerUrls.crm).toBeNull()
  })
})

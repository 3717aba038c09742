import { describe, expect, it } from 'vitest'
import {
  checkIntegrationForm,
  INTEGRATION_PRESETS,
  type IntegrationFormValues,
  parseAdditionalParams,
  parseScopes,
} from './integrations.ts'

const form: IntegrationFormValues = {
  service_name: 'tracker',
  client_id: 'id',
  client_secret: 'secret',
  auth_url: 'https://tracker.example.com/authorize',
  token_url: 'https://tracker.example.com/token',
  revoke_url: '',
  scopes: 'read, write',
  additional_params: '',
}

describe('the integration form rules', () => {
  it('splits scopes on commas, trimmed, blanks dropped', () => {
    expect(parseScopes(' a, ,b ,, c ')).toEqual(['a', 'b', 'c'])
    expect(parseScopes('   ')).toEqual([])
  })

  it('needs a client secret on create only: blank on edit keeps the stored one', () => {
    const create = checkIntegrationForm({ ...form, client_secret: '  ' }, 'create')
    expect(create).toEqual({ ok: false, problems: { client_secret: 'Client Secret is required' } })
    const edit = checkIntegrationForm({ ...form, client_secret: '' }, 'edit')
    expect(edit.ok && edit.definition.client_secret).toBeUndefined()
  })

  it("gives each field the form's text", () => {
    const checked = checkIntegrationForm(
      {
        ...form,
        service_name: ' ',
        client_id: '',
        auth_url: '',
        token_url: 'nope',
        revoke_url: 'x',
      },
      'create',
    )
    expect(checked).toEqual({
      ok: false,
      problems: {
        service_name: 'Service name is required',
        client_id: 'Client ID is required',
        auth_url: 'Auth URL is required',
        token_url: 'Invalid URL format',
        revoke_url: 'Invalid URL format',
      },
    })
  })

  it('takes additional parameters as a JSON object of simple values, never our own', () => {
    expect(parseAdditionalParams('{"prompt": "consent", "n": 1, "b": true}')).toEqual({
      params: { prompt: 'consent', n: '1', b: 'true' },
    })
    expect(parseAdditionalParams('{oops')).toEqual({ problem: 'Invalid JSON format' })
    expect(parseAdditionalParams('"text"')).toEqual({ problem: 'Invalid JSON format' })
    expect(parseAdditionalParams({ nested: {} })).toEqual({ problem: 'Invalid JSON format' })
    expect(parseAdditionalParams({ redirect_uri: 'https://evil.example' })).toHaveProperty(
      'problem',
    )
  })

  it('accepts http only for loopback hosts', () => {
    const local = checkIntegrationForm(
      { ...form, auth_url: 'http://127.0.0.1:4000/auth' },
      'create',
    )
    expect(local.ok).toBe(true)
    const remote = checkIntegrationForm(
      { ...form, auth_url: 'http://tracker.example.com/a' },
      'create',
    )
    expect(remote.ok || remote.problems.auth_url).toBe(
      'Use an https:// URL (http:// only for localhost)',
    )
  })

  it('has presets that pass the rules as they are', () => {
    for (const preset of INTEGRATION_PRESETS) {
      const checked = checkIntegrationForm(
        { ...preset, client_id: 'id', client_secret: 'secret' },
        'create',
      )
      expect(checked.ok, preset.preset).toBe(true)
    }
  })
})

import { describe, expect, it } from 'vitest'
import {
  integrationSubtitle,
  isSpreadsheetIntegration,
  sortByServiceName,
  truncateClientId,
  urlHost,
} from './integration-display.ts'

describe('integration display', () => {
  it('sorts by service_name', () => {
    const sorted = sortByServiceName([
      { service_name: 'linear' },
      { service_name: 'google-sheets' },
      { service_name: 'hubspot' },
    ])
    expect(sorted.map((item) => item.service_name)).toEqual(['google-sheets', 'hubspot', 'linear'])
  })

  it("says 'File-specific access' for the spreadsheet one, the single scope, else read / write", () => {
    expect(
      integrationSubtitle({ service_name: 'sheets', scopes: ['a', 'b'], preset: 'google-sheets' }),
    ).toBe('File-specific access')
    expect(integrationSubtitle({ service_name: 'crm', scopes: ['contacts'], preset: null })).toBe(
      'contacts',
    )
    expect(integrationSubtitle({ service_name: 'linear', scopes: ['read', 'write'] })).toBe(
      'Read / write permissions',
    )
    expect(integrationSubtitle({ service_name: 'bare', scopes: [] })).toBe(
      'Read / write permissions',
    )
    expect(isSpreadsheetIntegration({ service_name: 'linear', scopes: [], preset: 'linear' })).toBe(
      false,
    )
  })

  it('truncates client ids at 20 characters and shows URL hosts', () => {
    expect(truncateClientId('12345678901234567890')).toBe('12345678901234567890')
    expect(truncateClientId('123456789012345678901')).toBe('12345678901234567890...')
    expect(urlHost('https://accounts.example.com:8443/o/oauth2/auth')).toBe(
      'accounts.example.com:8443',
    )
    expect(urlHost('not a url')).toBe('not a url')
  })
})

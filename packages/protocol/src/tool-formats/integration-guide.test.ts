import { describe, expect, it } from 'vitest'
import {
  integrationGuideText,
  integrationGuideTitle,
  integrationGuideWaitingText,
} from './integration-guide.ts'

describe('integration guide output', () => {
  it('reads a string or the response, answer or content field', () => {
    expect(integrationGuideText('Use the SDK')).toBe('Use the SDK')
    expect(integrationGuideText({ response: 'r', answer: 'a' })).toBe('r')
    expect(integrationGuideText({ answer: 'a' })).toBe('a')
    expect(integrationGuideText({ content: 'c' })).toBe('c')
    expect(integrationGuideText({ other: 1 })).toBe('')
    expect(integrationGuideText(undefined)).toBe('')
  })

  it('writes the title and the waiting text', () => {
    expect(integrationGuideTitle('Stripe')).toBe('Stripe Integration Guide')
    expect(integrationGuideWaitingText('Stripe')).toBe('Generating Stripe guide...')
  })

  // Issue 20: the panel read 'linear Integration Guide', the model's spelling of the preset.
  it('names a preset by its display name, however the model spells it', () => {
    expect(integrationGuideTitle('linear')).toBe('Linear Integration Guide')
    expect(integrationGuideWaitingText('linear')).toBe('Generating Linear guide...')
    expect(integrationGuideTitle('google-sheets')).toBe('Google Sheets Integration Guide')
    expect(integrationGuideTitle('Google sheets')).toBe('Google Sheets Integration Guide')
    expect(integrationGuideTitle('hubspot')).toBe('HubSpot Integration Guide')
    expect(integrationGuideTitle(' stripe ')).toBe('Stripe Integration Guide')
  })
})

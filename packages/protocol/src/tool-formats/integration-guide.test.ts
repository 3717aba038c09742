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
})

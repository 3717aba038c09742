import { describe, expect, test } from 'vitest'
import { DemoLanguageModel } from '../demo/demo-model.ts'
import { createLanguageModel } from './create-language-model.ts'
import type { ProvidersConfig } from './providers-config.ts'

const unconfigured: ProvidersConfig = {
  anthropic: { baseUrl: 'https://api.anthropic.com/v1' },
  openai: { baseUrl: 'https://api.openai.com/v1' },
  xai: { baseUrl: 'https://api.x.ai/v1' },
  openaiCompatible: { models: [] },
}
const configured: ProvidersConfig = {
  anthropic: { apiKey: 'a', baseUrl: 'http://127.0.0.1:1/v1' },
  openai: { apiKey: 'o', baseUrl: 'http://127.0.0.1:1/v1' },
  xai: { apiKey: 'x', baseUrl: 'http://127.0.0.1:1/v1' },
  openaiCompatible: { baseUrl: 'http://127.0.0.1:11434/v1', models: ['qwen2.5-coder'] },
}

describe('createLanguageModel', () => {
  test.each([
    ['claude-sonnet-4-5', 'Set ANTHROPIC_API_KEY to use claude-sonnet-4-5.'],
    ['gpt-5', 'Set OPENAI_API_KEY to use gpt-5.'],
    ['grok-4', 'Set XAI_API_KEY to use grok-4.'],
  ])('%s without a key names the setting', (modelId, message) => {
    expect(() => createLanguageModel(modelId, unconfigured)).toThrow(message)
  })

  test('an unknown model id is a clear error', () => {
    expect(() => createLanguageModel('gpt-99', configured)).toThrow(
      /Unknown model "gpt-99".*OPENAI_COMPATIBLE_MODELS/,
    )
  })

  test('an OpenAI-compatible model needs its base URL', () => {
    const config = { ...unconfigured, openaiCompatible: { models: ['qwen2.5-coder'] } }
    expect(() => createLanguageModel('qwen2.5-coder', config)).toThrow(
      'Set OPENAI_COMPATIBLE_BASE_URL to use qwen2.5-coder.',
    )
  })

  test('picks the provider of each model', () => {
    const provider = (modelId: string) => createLanguageModel(modelId, configured).provider
    expect(provider('claude-haiku-4-5')).toMatch(/^anthropic/)
    expect(provider('gpt-5-nano')).toBe('openai.responses')
    expect(provider('grok-code-fast-1')).toMatch(/^xai/)
    expect(provider('qwen2.5-coder')).toMatch(/^openai-compatible/)
  })

  test('the demo model needs no configuration', () => {
    expect(createLanguageModel('demo', unconfigured)).toBeInstanceOf(DemoLanguageModel)
  })
})

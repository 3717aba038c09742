import { modelListSchema } from '@sprout/protocol/models.ts'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../testing/app-harness.ts'

async function fetchModels(environment: Record<string, string>) {
  const harness = await createTestApp(environment)
  try {
    const user = await harness.signUp()
    const response = await harness.request('/api/models', { user })
    expect(response.status).toBe(200)
    return modelListSchema.parse(await response.json())
  } finally {
    await harness.close()
  }
}

describe('GET /api/models', () => {
  it('lists the catalogue with prices, marking models of unconfigured providers unavailable', async () => {
    const models = await fetchModels({})
    expect(models.map((model) => model.model)).toEqual([
      'claude-sonnet-4-5',
      'claude-opus-4-1',
      'claude-haiku-4-5',
      'gpt-5',
      'gpt-5-mini',
      'gpt-5-nano',
      'grok-code-fast-1',
      'grok-4',
      'demo',
    ])
    const sonnet = models.find((model) => model.model === 'claude-sonnet-4-5')
    expect(sonnet).toMatchObject({
      provider: 'anthropic',
      inputPrice: 3,
      outputPrice: 15,
      cacheReadPrice: 0.3,
      cacheWritePrice: 3.75,
      contextWindow: 200_000,
      available: false,
      unavailableReason: 'Set ANTHROPIC_API_KEY to use this model.',
    })
    const demo = models.find((model) => model.model === 'demo')
    expect(demo).toMatchObject({ available: true, provider: 'demo' })
    expect(demo?.name).toMatch(/scripted/i)
  })

  it('marks a provider available once its key is set and adds local models', async () => {
    const models = await fetchModels({
      OPENAI_API_KEY: 'sk-test',
      OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:11434/v1',
      OPENAI_COMPATIBLE_MODELS: 'qwen3-coder, llama3.3',
    })
    const available = models.filter((model) => model.available).map((model) => model.model)
    expect(available).toEqual([
      'gpt-5',
      'gpt-5-mini',
      'gpt-5-nano',
      'qwen3-coder',
      'llama3.3',
      'demo',
    ])
    expect(models.find((model) => model.model === 'qwen3-coder')?.provider).toBe(
      'openai-compatible',
    )
  })
})

import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAI } from '@ai-sdk/openai'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import type { LanguageModelV4 } from '@ai-sdk/provider'
import { createXai } from '@ai-sdk/xai'
import { DEMO_MODEL_ID } from '@sprout/protocol/models.ts'
import { DemoLanguageModel } from '../demo/demo-model.ts'
import { modelCatalogue } from '../models/catalogue.ts'
import { ModelUnavailableError } from './model-unavailable-error.ts'
import type { ProvidersConfig } from './providers-config.ts'

const keySettings = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
  xai: 'XAI_API_KEY',
} as const

function requireKey(
  provider: keyof typeof keySettings,
  config: ProvidersConfig,
  modelId: string,
): string {
  const apiKey = config[provider].apiKey
  if (!apiKey) throw new ModelUnavailableError(`Set ${keySettings[provider]} to use ${modelId}.`)
  return apiKey
}

/**
 * The AI SDK model for a model id of the catalogue, an OpenAI-compatible model listed in
 * OPENAI_COMPATIBLE_MODELS, or the offline Demo model.
 */
export function createLanguageModel(modelId: string, config: ProvidersConfig): LanguageModelV4 {
  if (modelId === DEMO_MODEL_ID) {
    return new DemoLanguageModel({ testGatesDir: config.demo?.testGatesDir })
  }
  const entry = modelCatalogue.find((candidate) => candidate.model === modelId)
  switch (entry?.provider) {
    case 'anthropic': {
      const apiKey = requireKey('anthropic', config, modelId)
      return createAnthropic({ apiKey, baseURL: config.anthropic.baseUrl })(modelId)
    }
    case 'openai': {
      const apiKey = requireKey('openai', config, modelId)
      return createOpenAI({ apiKey, baseURL: config.openai.baseUrl })(modelId)
    }
    case 'xai': {
      const apiKey = requireKey('xai', config, modelId)
      return createXai({ apiKey, baseURL: config.xai.baseUrl })(modelId)
    }
  }
  const compatible = config.openaiCompatible
  if (compatible.models.includes(modelId)) {
    if (!compatible.baseUrl) {
      throw new ModelUnavailableError(`Set OPENAI_COMPATIBLE_BASE_URL to use ${modelId}.`)
    }
    const provider = createOpenAICompatible({
      name: 'openai-compatible',
      baseURL: compatible.baseUrl,
      apiKey: compatible.apiKey,
      includeUsage: true,
    })
    return provider(modelId)
  }
  throw new ModelUnavailableError(
    `Unknown model "${modelId}". Pick one from the model list; a model of an OpenAI-compatible server must be listed in OPENAI_COMPATIBLE_MODELS.`,
  )
}

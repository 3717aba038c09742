import { demoModelEntry, modelCatalogue } from '@sprout/agent/models/catalogue.ts'
import { imagesRefusal, type Model, type ModelProvider } from '@sprout/protocol/models.ts'
import type { Config } from '../config/config.ts'
import { badRequest } from '../http/app-error.ts'

const keySetting: Record<'anthropic' | 'openai' | 'xai', string> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
  xai: 'XAI_API_KEY',
}

function unavailableReason(provider: ModelProvider, config: Config): string | undefined {
  if (provider === 'demo' || provider === 'openai-compatible') return undefined
  if (config.providers[provider].apiKey) return undefined
  return `Set ${keySetting[provider]} to use this model.`
}

/**
 * The catalogue (docs/product/models.md), each model marked by whether its provider is configured.
 */
export function listModels(config: Config): Model[] {
  const local = config.providers.openaiCompatible
  const compatible: Model[] = local.baseUrl
    ? local.models.map((modelId) => ({
        model: modelId,
        name: modelId,
        provider: 'openai-compatible',
        description: `Served by the OpenAI-compatible server at ${local.baseUrl}.`,
        performance: 0,
        speed: 0,
        reasoning: 0,
        inputPrice: 0,
        outputPrice: 0,
        cacheReadPrice: 0,
        cacheWritePrice: 0,
        contextWindow: 128_000,
        images: local.imageModels?.includes(modelId) ?? false,
        available: true,
      }))
    : []
  const hosted: Model[] = modelCatalogue.map((entry) => {
    const reason = unavailableReason(entry.provider, config)
    return reason
      ? { ...entry, available: false, unavailableReason: reason }
      : { ...entry, available: true }
  })
  return [...hosted, ...compatible, { ...demoModelEntry, available: true }]
}

/**
 * The model a request names, if it can run here; otherwise the one 400 every route gives for
 * that mistake: an unknown model, or the setting to add for one that is not configured.
 */
export function requireRunnableModel(config: Config, modelId: string): Model {
  const model = listModels(config).find((candidate) => candidate.model === modelId)
  if (!model) throw badRequest(`Invalid field "model": unknown model "${modelId}"`)
  if (!model.available) {
    throw badRequest(
      `Model ${model.name} is not available. ${model.unavailableReason ?? ''}`.trim(),
    )
  }
  return model
}

/** Refuses images for a model that cannot read them, before the run (docs/product/images.md). */
export function requireImageReader(config: Config, model: Model): void {
  const refusal = imagesRefusal(model, listModels(config))
  if (refusal) throw badRequest(refusal)
}

import {
  type Model,
  type ModelProvider,
  modelProviderSchema,
  providerGroupLabels,
} from '@sprout/protocol/models.ts'

export type ModelGroup = { provider: ModelProvider; label: string; models: Model[] }

/** Groups in a fixed order: Anthropic, OpenAI, xAI, then local OpenAI-compatible, then Demo. */
export function groupModels(models: Model[]): ModelGroup[] {
  return modelProviderSchema.options
    .map((provider) => ({
      provider,
      label: providerGroupLabels[provider],
      models: models.filter((model) => model.provider === provider),
    }))
    .filter((group) => group.models.length > 0)
}

import { z } from 'zod'

export const modelProviderSchema = z.enum([
  'anthropic',
  'openai',
  'xai',
  'openai-compatible',
  'demo',
])
export type ModelProvider = z.infer<typeof modelProviderSchema>

const rating = z.number().int().min(0).max(5)

/** docs/product/models.md "Model", plus whether the server can run it right now. */
export const modelSchema = z.object({
  model: z.string(),
  name: z.string(),
  provider: modelProviderSchema,
  description: z.string(),
  performance: rating,
  speed: rating,
  reasoning: rating,
  inputPrice: z.number().min(0),
  outputPrice: z.number().min(0),
  cacheReadPrice: z.number().min(0),
  cacheWritePrice: z.number().min(0),
  contextWindow: z.number().int().positive(),
  /** Whether it reads images attached to a message (docs/product/images.md). */
  images: z.boolean(),
  available: z.boolean(),
  /** Why it is unavailable, naming the env setting to add. */
  unavailableReason: z.string().optional(),
})
export type Model = z.infer<typeof modelSchema>

export const modelListSchema = z.array(modelSchema)

export const DEFAULT_MODEL_ID = 'claude-haiku-4-5'
export const DEMO_MODEL_ID = 'demo'
export const SELECTED_MODEL_STORAGE_KEY = 'selectedModel'

const shortLabels: Record<string, string> = {
  'claude-sonnet-4-5': 'Sonnet',
  'claude-opus-4-1': 'Opus',
  'gpt-5': 'GPT5',
  'gpt-5-mini': 'GPT5m',
  'gpt-5-nano': 'GPT5n',
  'claude-haiku-4-5': 'Haiku',
  'grok-code-fast-1': 'Grok',
  'grok-4': 'Grok4',
  demo: 'Demo',
}

/** The model selector's button label (docs/product/models.md); 'Model' for anything else. */
export function modelShortLabel(modelId: string | undefined): string {
  return (modelId && shortLabels[modelId]) || 'Model'
}

/** Dollars per million tokens, two decimals under 1; 'N/A' for zero (docs/product/models.md). */
export function formatPrice(price: number): string {
  if (price === 0) return 'N/A'
  if (price < 1) return `$${price.toFixed(2)}`
  return `$${Number.isInteger(price) ? price : price.toFixed(2)}`
}

export const providerGroupLabels: Record<ModelProvider, string> = {
  anthropic: 'Anthropic',
  openai: 'OpenAI',
  xai: 'xAI',
  'openai-compatible': 'Local (OpenAI-compatible)',
  demo: 'Demo',
}

/** The default selection: claude-haiku-4-5 when available, else the first available model. */
export function pickDefaultModel(models: Model[], remembered?: string | null): string | undefined {
  const available = models.filter((model) => model.available)
  if (remembered && available.some((model) => model.model === remembered)) return remembered
  if (available.some((model) => model.model === DEFAULT_MODEL_ID)) return DEFAULT_MODEL_ID
  return available[0]?.model
}

/**
 * Why `model` cannot take a message's images, naming one that can (the default pick among those
 * that can), or undefined when it can (docs/product/images.md). The server and the web both say it.
 */
export function imagesRefusal(model: Model, models: readonly Model[]): string | undefined {
  if (model.images) return undefined
  const readers = models.filter((candidate) => candidate.available && candidate.images)
  const other = readers.find((candidate) => candidate.model === pickDefaultModel(readers))
  return other
    ? `${model.name} cannot read images. Choose a model that can, such as ${other.name}.`
    : `${model.name} cannot read images, and no model that can is set up.`
}

import { imagesRefusal, type Model } from '@sprout/protocol/models.ts'

/**
 * Why the chosen model cannot take a message's images, or null when it can or the models are
 * not known yet (docs/product/images.md): the server's own words.
 */
export function modelImagesRefusal(
  models: readonly Model[] | undefined,
  modelId: string | undefined,
): string | null {
  const model = models?.find((candidate) => candidate.model === modelId)
  if (!models || !model) return null
  return imagesRefusal(model, models) ?? null
}

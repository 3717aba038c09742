import type { Model } from '@sprout/protocol/models.ts'

/** A model of the catalogue's shape for tests: available, reading images, unless told. */
export function testModel(id: string, fields: Partial<Model> = {}): Model {
  return {
    model: id,
    name: id,
    provider: id.startsWith('claude') ? 'anthropic' : 'openai',
    description: '',
    performance: 3,
    speed: 3,
    reasoning: 3,
    inputPrice: 0,
    outputPrice: 0,
    cacheReadPrice: 0,
    cacheWritePrice: 0,
    contextWindow: 200_000,
    images: true,
    available: true,
    ...fields,
  }
}

import type { Model } from '@sprout/protocol/models.ts'
import { describe, expect, it } from 'vitest'
import { testModel } from '../../../testing/test-model.ts'
import { modelImagesRefusal } from './model-images-refusal.ts'

const model = (id: string, name: string, fields: Partial<Model> = {}) =>
  testModel(id, { name, ...fields })

const grok = model('grok-code-fast-1', 'Grok Code Fast', { images: false })

describe('modelImagesRefusal (docs/product/images.md "Sending")', () => {
  it('lets a model that reads images take them', () => {
    expect(modelImagesRefusal([grok, model('gpt-5', 'GPT-5')], 'gpt-5')).toBeNull()
  })

  it('names the default pick among the models that can', () => {
    const models = [
      grok,
      model('gpt-5', 'GPT-5'),
      model('claude-haiku-4-5', 'Claude Haiku 4.5'),
      model('local-text', 'local-text', { images: false }),
    ]
    expect(modelImagesRefusal(models, 'grok-code-fast-1')).toBe(
      'Grok Code Fast cannot read images. Choose a model that can, such as Claude Haiku 4.5.',
    )
    const withoutHaiku = models.filter((candidate) => candidate.model !== 'claude-haiku-4-5')
    expect(modelImagesRefusal(withoutHaiku, 'local-text')).toBe(
      'local-text cannot read images. Choose a model that can, such as GPT-5.',
    )
  })

  it('says when no model that can is set up', () => {
    const models = [grok, model('gpt-5', 'GPT-5', { available: false })]
    expect(modelImagesRefusal(models, 'grok-code-fast-1')).toBe(
      'Grok Code Fast cannot read images, and no model that can is set up.',
    )
  })

  it('says nothing while the models are unknown', () => {
    expect(modelImagesRefusal(undefined, 'grok-code-fast-1')).toBeNull()
  })
})

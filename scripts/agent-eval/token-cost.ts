import type { Model } from '@sprout/protocol/models.ts'
import type { RunTally } from './run-tally.ts'

/**
 * The dollars of a spec's tokens at the model's list prices ($ per million, GET /api/models, from
 * packages/agent/src/models/catalogue.ts). `data-usage` input counts cache writes with fresh
 * input, so they are priced as input. Undefined for a model without prices (Demo, local models).
 */
export function tokenCost(
  tokens: RunTally['tokens'],
  model: Pick<Model, 'inputPrice' | 'outputPrice' | 'cacheReadPrice'>,
): number | undefined {
  if (model.inputPrice === 0 && model.outputPrice === 0) return undefined
  return (
    (tokens.input * model.inputPrice +
      tokens.cacheRead * model.cacheReadPrice +
      tokens.output * model.outputPrice) /
    1_000_000
  )
}

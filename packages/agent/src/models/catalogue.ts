import type { Model, ModelProvider } from '@sprout/protocol/models.ts'

export type CatalogueEntry = Omit<Model, 'available' | 'unavailableReason'>

const entry = (
  model: string,
  name: string,
  provider: ModelProvider,
  description: string,
  ratings: [performance: number, speed: number, reasoning: number],
  prices: [input: number, output: number, cacheRead: number, cacheWrite: number],
  contextWindow: number,
  images = true,
): CatalogueEntry => ({
  model,
  name,
  provider,
  description,
  performance: ratings[0],
  speed: ratings[1],
  reasoning: ratings[2],
  inputPrice: prices[0],
  outputPrice: prices[1],
  cacheReadPrice: prices[2],
  cacheWritePrice: prices[3],
  contextWindow,
  images,
})

/** Published list prices in $ per million tokens, as of 2026-11. */
export const modelCatalogue: CatalogueEntry[] = [
  entry(
    'claude-sonnet-4-5',
    'Claude Sonnet 4.5',
    'anthropic',
    'Anthropic’s best coding model: strong at multi-step agent work.',
    [5, 3, 5],
    [3, 15, 0.3, 3.75],
    200_000,
  ),
  entry(
    'claude-opus-4-1',
    'Claude Opus 4.1',
    'anthropic',
    'Anthropic’s most capable model for hard, long reasoning tasks.',
    [5, 2, 5],
    [15, 75, 1.5, 18.75],
    200_000,
  ),
  entry(
    'claude-haiku-4-5',
    'Claude Haiku 4.5',
    'anthropic',
    'Fast and inexpensive, with near-frontier coding skill.',
    [4, 5, 3],
    [1, 5, 0.1, 1.25],
    200_000,
  ),
  entry(
    'gpt-5',
    'GPT-5',
    'openai',
    'OpenAI’s flagship reasoning model for coding and agentic tasks.',
    [5, 3, 5],
    [1.25, 10, 0.125, 0],
    400_000,
  ),
  entry(
    'gpt-5-mini',
    'GPT-5 mini',
    'openai',
    'A faster, cheaper GPT-5 for well-defined tasks.',
    [4, 4, 4],
    [0.25, 2, 0.025, 0],
    400_000,
  ),
  entry(
    'gpt-5-nano',
    'GPT-5 nano',
    'openai',
    'The fastest, cheapest GPT-5 for simple edits.',
    [3, 5, 3],
    [0.05, 0.4, 0.005, 0],
    400_000,
  ),
  entry(
    'grok-code-fast-1',
    'Grok Code Fast 1',
    'xai',
    'xAI’s speedy, economical model tuned for agentic coding.',
    [3, 5, 3],
    [0.2, 1.5, 0.02, 0],
    256_000,
    // Text only, as xAI publishes it.
    false,
  ),
  entry(
    'grok-4',
    'Grok 4',
    'xai',
    'xAI’s frontier reasoning model.',
    [5, 2, 5],
    [3, 15, 0.75, 0],
    256_000,
  ),
]

export const demoModelEntry: CatalogueEntry = entry(
  'demo',
  'Demo (scripted, no AI)',
  'demo',
  'A scripted offline demo: no AI and no key needed. It shows the whole builder flow with canned steps.',
  [0, 5, 0],
  [0, 0, 0, 0],
  200_000,
)

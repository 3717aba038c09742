import type { TokenUsage } from '@sprout/protocol/stream/stream-chunk.ts'
import type {
  FinishReason,
  LanguageModel,
  LanguageModelCallOptions,
  LanguageModelUsage,
  ModelMessage,
} from 'ai'
import type { AgentChunk } from './agent-chunk.ts'
import type { ClassifiedProviderError } from './providers/classify-provider-error.ts'
import type { ToolContext } from './tools/tool-context.ts'

export const DEFAULT_MAX_STEPS = 50

export type RunAgentOptions = {
  model: LanguageModel
  /** The catalogue id; tells Anthropic models apart when `model` is given as a string. */
  modelId: string
  contextWindow: number
  system: string
  /** The conversation so far, ending with the user's new message. */
  messages: ModelMessage[]
  /** What the tools work with; without it the model gets no tools (exploration chat). */
  toolContext?: Omit<ToolContext, 'onToolOutput'>
  maxSteps?: number
  abortSignal?: AbortSignal
  /** Receives every chunk in order; awaited, so a slow consumer slows the run, never reorders it. */
  onChunk: (chunk: AgentChunk) => void | Promise<void>
  /** Called at each step boundary; the texts are added as user messages, in order. */
  takeStagedMessages?: () => Promise<string[]>
  /** Provider retries on 429/5xx before the run fails; the SDK's default is 2. */
  maxRetries?: number
  compactionThreshold?: number
  /** How hard reasoning models think; each provider maps it to its own setting. */
  reasoning?: LanguageModelCallOptions['reasoning']
}

export type RunAgentResult = {
  /** Messages added by this run, in order: staged user messages, assistant turns, tool results. */
  responseMessages: ModelMessage[]
  /** The whole conversation to send next time; older history is summarised if it was compacted. */
  messages: ModelMessage[]
  compacted: boolean
  finishReason: FinishReason | 'aborted'
  /** Context use of the last model call. */
  usage: TokenUsage | undefined
  /** Tokens of all model calls of this run. */
  totalUsage: LanguageModelUsage
  error?: ClassifiedProviderError
}

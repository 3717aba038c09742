import type { TokenUsage } from '@sprout/protocol/stream/stream-chunk.ts'
import type { FinishReason, LanguageModelUsage, ModelMessage } from 'ai'
import type { AgentChunk } from './agent-chunk.ts'
import { isAnthropicModel, withoutHistoryBreakpoints } from './anthropic-prompt-cache.ts'
import { COMPACTION_THRESHOLD } from './compact-history.ts'
import type { ClassifiedProviderError } from './providers/classify-provider-error.ts'
import type { RunAgentOptions } from './run-agent-options.ts'
import { emptyUsage } from './usage-data.ts'

/** What the steps of one agent run share, from the first prepared step to the result. */
export type AgentRunState = {
  options: RunAgentOptions
  anthropic: boolean
  /** The share of the context window past which the history is compacted before a step. */
  threshold: number
  /** The chain of `onChunk` calls: chunks are delivered one at a time, in order. */
  emitting: Promise<void>
  interruptReported: boolean
  /** The conversation as the next model call sees it. */
  history: ModelMessage[]
  responseMessages: ModelMessage[]
  /** Input and output tokens of the last model call, for the compaction check. */
  lastCallTokens: number | undefined
  compacted: boolean
  /** Usage of each finished step, taken when its `finish-step` chunk passes. */
  stepUsages: LanguageModelUsage[]
  totalUsage: LanguageModelUsage
  classifiedError: ClassifiedProviderError | undefined
  finishReason: FinishReason | 'aborted' | undefined
  usage: TokenUsage | undefined
  /** The text of the current step, kept for an interrupt. */
  stepText: string
}

export function createAgentRunState(options: RunAgentOptions): AgentRunState {
  return {
    options,
    anthropic: isAnthropicModel(options.model, options.modelId),
    threshold: options.compactionThreshold ?? COMPACTION_THRESHOLD,
    emitting: Promise.resolve(),
    interruptReported: false,
    history: withoutHistoryBreakpoints(options.messages),
    responseMessages: [],
    lastCallTokens: undefined,
    compacted: false,
    stepUsages: [],
    totalUsage: emptyUsage,
    classifiedError: undefined,
    finishReason: undefined,
    usage: undefined,
    stepText: '',
  }
}

export function emitChunk(state: AgentRunState, chunk: AgentChunk): Promise<void> {
  state.emitting = state.emitting.then(() => state.options.onChunk(chunk))
  return state.emitting
}

export function emitError(state: AgentRunState, error: ClassifiedProviderError) {
  if (error.errorType === 'interrupt') state.interruptReported = true
  return emitChunk(state, {
    type: 'data-error',
    data: { error: error.message, errorType: error.errorType },
  })
}

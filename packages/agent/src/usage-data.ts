import { contextUsage } from '@sprout/protocol/stream/context-usage.ts'
import type { TokenUsage } from '@sprout/protocol/stream/stream-chunk.ts'
import type { LanguageModelUsage } from 'ai'

/**
 * Context use of one model call (the payload of `data-usage`). The SDK's `inputTokens` already
 * counts cache reads and writes (for Anthropic too), so cache reads are taken out of it rather
 * than added on top; `inputTokens` here is fresh input plus cache writes.
 */
export function toTokenUsage(usage: LanguageModelUsage, contextWindow: number): TokenUsage {
  const totalInput = usage.inputTokens ?? 0
  const cacheReadTokens = usage.inputTokenDetails?.cacheReadTokens ?? 0
  const tokens = {
    inputTokens: Math.max(0, totalInput - cacheReadTokens),
    cacheReadTokens,
    outputTokens: usage.outputTokens ?? 0,
  }
  return { ...tokens, ...contextUsage(tokens, contextWindow) }
}

function add(left: number | undefined, right: number | undefined): number | undefined {
  return left === undefined && right === undefined ? undefined : (left ?? 0) + (right ?? 0)
}

export function addUsage(left: LanguageModelUsage, right: LanguageModelUsage): LanguageModelUsage {
  return {
    inputTokens: add(left.inputTokens, right.inputTokens),
    inputTokenDetails: {
      noCacheTokens: add(
        left.inputTokenDetails?.noCacheTokens,
        right.inputTokenDetails?.noCacheTokens,
      ),
      cacheReadTokens: add(
        left.inputTokenDetails?.cacheReadTokens,
        right.inputTokenDetails?.cacheReadTokens,
      ),
      cacheWriteTokens: add(
        left.inputTokenDetails?.cacheWriteTokens,
        right.inputTokenDetails?.cacheWriteTokens,
      ),
    },
    outputTokens: add(left.outputTokens, right.outputTokens),
    outputTokenDetails: {
      textTokens: add(left.outputTokenDetails?.textTokens, right.outputTokenDetails?.textTokens),
      reasoningTokens: add(
        left.outputTokenDetails?.reasoningTokens,
        right.outputTokenDetails?.reasoningTokens,
      ),
    },
    totalTokens: add(left.totalTokens, right.totalTokens),
  }
}

export const emptyUsage: LanguageModelUsage = {
  inputTokens: undefined,
  inputTokenDetails: {
    noCacheTokens: undefined,
    cacheReadTokens: undefined,
    cacheWriteTokens: undefined,
  },
  outputTokens: undefined,
  outputTokenDetails: { textTokens: undefined, reasoningTokens: undefined },
  totalTokens: undefined,
}

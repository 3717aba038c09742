import { CONTEXT_WARNING_PERCENTAGE } from '../constants.ts'

export interface TokenCounts {
  /** Input tokens not read from the cache (for Anthropic: `inputTokenDetails.noCacheTokens`). */
  inputTokens: number
  cacheReadTokens: number
  outputTokens: number
}

export interface ContextUsage {
  used: number
  limit: number
  /** 0-100 (may exceed 100), one decimal. */
  percentage: number
}

/**
 * docs/product/builder.md "Context usage": (input + cache read + output tokens) over the model's
 * context window.
 */
export function contextUsage(tokens: TokenCounts, contextWindow: number): ContextUsage {
  const used = tokens.inputTokens + tokens.cacheReadTokens + tokens.outputTokens
  const percentage = contextWindow > 0 ? Math.round((used / contextWindow) * 1_000) / 10 : 0
  return { used, limit: contextWindow, percentage }
}

/** The readout turns to the warning colour above 80 %. */
export function isContextWarning(usage: Pick<ContextUsage, 'percentage'>): boolean {
  return usage.percentage > CONTEXT_WARNING_PERCENTAGE
}

/** 'Context: used / limit', e.g. 'Context: 12,345 / 200,000'. */
export function formatContextUsage(usage: Pick<ContextUsage, 'used' | 'limit'>): string {
  return `Context: ${usage.used.toLocaleString('en-US')} / ${usage.limit.toLocaleString('en-US')}`
}

/** The share of the window, rounded down so 80.4 % does not read as a warning-free '81%'. */
export function formatContextPercentage(usage: Pick<ContextUsage, 'percentage'>): string {
  return `(${Math.floor(usage.percentage)}%)`
}

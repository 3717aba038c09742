import { describe, expect, it } from 'vitest'
import {
  contextUsage,
  formatContextPercentage,
  formatContextUsage,
  isContextWarning,
} from './context-usage.ts'

describe('contextUsage', () => {
  it('adds input, cache read and output tokens over the context window', () => {
    expect(
      contextUsage({ inputTokens: 1_000, cacheReadTokens: 9_000, outputTokens: 500 }, 200_000),
    ).toEqual({ used: 10_500, limit: 200_000, percentage: 5.3 })
  })

  it('is 0 % for an unknown (zero) context window', () => {
    expect(contextUsage({ inputTokens: 10, cacheReadTokens: 0, outputTokens: 0 }, 0)).toEqual({
      used: 10,
      limit: 0,
      percentage: 0,
    })
  })

  it('warns only above 80 %', () => {
    expect(isContextWarning({ percentage: 80 })).toBe(false)
    expect(isContextWarning({ percentage: 80.1 })).toBe(true)
  })

  it('formats the readout', () => {
    expect(formatContextUsage({ used: 12_345, limit: 200_000 })).toBe('Context: 12,345 / 200,000')
    const usage = contextUsage(
      { inputTokens: 170_500, cacheReadTokens: 0, outputTokens: 0 },
      200_000,
    )
    expect(`${formatContextUsage(usage)} ${formatContextPercentage(usage)}`).toBe(
      'Context: 170,500 / 200,000 (85%)',
    )
    expect(formatContextPercentage({ percentage: 80.9 })).toBe('(80%)')
  })
})

import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, render } from '../../testing/render.tsx'
import { ContextUsageReadout } from './context-usage-readout.tsx'

afterEach(cleanup)

const usage = (used: number) => ({
  inputTokens: used,
  cacheReadTokens: 0,
  outputTokens: 0,
  used,
  limit: 200_000,
  percentage: Math.round((used / 200_000) * 1_000) / 10,
})

describe('ContextUsageReadout', () => {
  it('shows the tokens used, the window and the percentage', () => {
    const container = render(<ContextUsageReadout usage={usage(170_500)} />)
    expect(container.textContent).toBe('Context: 170,500 / 200,000 (85%)')
  })

  it('colours only the percentage, and only above 80 %', () => {
    const high = render(<ContextUsageReadout usage={usage(170_500)} />)
    expect(high.querySelector('[data-testid="context-percentage"]')?.className).toContain(
      'text-amber-700',
    )
    expect(high.querySelector('[data-testid="context-usage"]')?.className).not.toContain('amber')
    const low = render(<ContextUsageReadout usage={usage(160_000)} />)
    expect(low.textContent).toBe('Context: 160,000 / 200,000 (80%)')
    expect(low.querySelector('[data-testid="context-percentage"]')?.className).not.toContain(
      'amber',
    )
  })
})

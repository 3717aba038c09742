import { describe, expect, it } from 'vitest'
import { runSpecs } from './run-specs.ts'
import type { AppSpec } from './spec-format.ts'
import type { SpecResult } from './spec-result.ts'

const specs: AppSpec[] = ['A', 'B', 'C', 'D'].map((name) => ({
  name,
  file: `${name}.json`,
  prompt: 'Build it',
  checks: [{ page: '/', text: name }],
}))

const passed = (spec: AppSpec, costUsd: number | undefined): SpecResult => ({
  name: spec.name,
  file: spec.file,
  status: 'passed',
  reason: undefined,
  checks: [],
  checksTotal: 1,
  productCheck: 'none',
  repair: false,
  acceptance: { written: false, state: 'none' },
  steps: 0,
  toolCalls: 0,
  tokens: 0,
  costUsd,
  durationMs: 0,
})

describe('runSpecs', () => {
  it('runs at most `concurrency` specs at once and answers in the specs order', async () => {
    let running = 0
    let most = 0
    const { results } = await runSpecs(
      specs,
      { concurrency: 2, maxCost: undefined, signal: new AbortController().signal },
      async (spec) => {
        running += 1
        most = Math.max(most, running)
        // B finishes first: the order of the answer is still the specs'.
        await new Promise((resolve) => setImmediate(resolve))
        if (spec.name === 'A') await new Promise((resolve) => setImmediate(resolve))
        running -= 1
        return passed(spec, undefined)
      },
    )
    expect(most).toBe(2)
    expect(results.map((result) => result.name)).toEqual(['A', 'B', 'C', 'D'])
  })

  it('starts no spec once the spent cost reaches --max-cost', async () => {
    const started: string[] = []
    const { results, budgetStop } = await runSpecs(
      specs,
      { concurrency: 1, maxCost: 0.5, signal: new AbortController().signal },
      async (spec) => {
        started.push(spec.name)
        return passed(spec, 0.3)
      },
    )
    expect(started).toEqual(['A', 'B'])
    expect(results.map((result) => result.status)).toEqual([
      'passed',
      'passed',
      'skipped',
      'skipped',
    ])
    expect(budgetStop?.maxCostUsd).toBe(0.5)
    expect(budgetStop?.spentUsd).toBeCloseTo(0.6)
  })
})

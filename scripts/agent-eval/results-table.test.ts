import { describe, expect, it } from 'vitest'
import { jsonReport, markdownReport } from './results-table.ts'
import { type SpecResult, skippedResult } from './spec-result.ts'

const result = (overrides: Partial<SpecResult>): SpecResult => ({
  name: 'Guest book',
  file: 'evals/agent/guest-book.json',
  status: 'passed',
  reason: undefined,
  checks: [
    { label: 'GET /api/health', passed: true, problem: undefined },
    { label: 'page / shows "Guest Book"', passed: true, problem: undefined },
  ],
  checksTotal: 2,
  productCheck: 'passed',
  repair: false,
  acceptance: { written: true, state: 'passed' },
  steps: 9,
  toolCalls: 8,
  tokens: 39_395,
  costUsd: undefined,
  durationMs: 8_040,
  ...overrides,
})

const summary = (results: SpecResult[], budgetStop?: { maxCostUsd: number; spentUsd: number }) => ({
  model: 'claude-haiku-4-5',
  browserTool: true,
  startedAt: '2026-11-26T21:00:00.000Z',
  results,
  budgetStop,
})

describe('markdownReport', () => {
  it('writes a row per spec and the totals', () => {
    const markdown = markdownReport(
      summary([
        result({ costUsd: 0.01234 }),
        result({
          name: 'Typed counter',
          status: 'failed',
          checks: [
            { label: 'page / shows "Typed | Counter"', passed: false, problem: 'not shown' },
          ],
          checksTotal: 1,
          productCheck: 'failed',
          repair: true,
          steps: 3,
          toolCalls: 2,
          tokens: 1_000,
          costUsd: 1.5,
          durationMs: 61_000,
        }),
      ]),
    )
    expect(markdown.split('\n').slice(0, 10)).toEqual([
      '## Agent eval: claude-haiku-4-5',
      '',
      'Started 2026-11-26T21:00:00.000Z.',
      '',
      '| Spec | Result | Checks | Product check | Repair | Acceptance tests | Steps | Tool calls | Tokens | Cost | Time |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      '| Guest book | passed | 2/2 | passed | no | written, passed | 9 | 8 | 39,395 | $0.0123 | 8.0 s |',
      '| Typed counter | failed | 0/1 | failed | yes | written, passed | 3 | 2 | 1,000 | $1.50 | 61.0 s |',
      '| **Total** | 1/2 passed | 2/3 | 1 passed | 1 | 2 written, 2 passed | 12 | 10 | 40,395 | $1.51 | 69.0 s |',
      '',
    ])
    // A failed check says why, its label's pipe escaped in the table only.
    expect(markdown).toContain(
      '### Not passed\n\n- **Typed counter**, page / shows "Typed | Counter": not shown\n',
    )
  })

  it('shows no cost for a model without prices, and a spec that could not run with its reason', () => {
    const markdown = markdownReport(
      summary([
        result({}),
        result({
          name: 'Broken',
          status: 'failed',
          reason: 'timed out after 300 s',
          checks: [],
          checksTotal: 3,
        }),
      ]),
    )
    expect(markdown).toContain(
      '| Guest book | passed | 2/2 | passed | no | written, passed | 9 | 8 | 39,395 | — | 8.0 s |',
    )
    expect(markdown).toContain('| Broken | failed | 0/3 |')
    expect(markdown).toContain('| **Total** | 1/2 passed | 2/5 | 2 passed | 0 |')
    expect(markdown).toContain('- **Broken**: timed out after 300 s')
  })

  it('says when the budget stopped new specs, which show as skipped', () => {
    const markdown = markdownReport(
      summary(
        [
          result({ costUsd: 0.6 }),
          skippedResult(
            { name: 'Later', file: 'later.json', checks: [] },
            'not started: the budget (--max-cost) was spent',
          ),
        ],
        { maxCostUsd: 0.5, spentUsd: 0.6 },
      ),
    )
    expect(markdown).toContain('| Later | skipped | — | — | — | — | 0 | 0 | 0 | — | 0.0 s |')
    expect(markdown).toContain(
      'Budget reached: $0.6000 spent of --max-cost $0.5000; 1 spec(s) not started.',
    )
    expect(markdown).toContain('- **Later**: not started: the budget (--max-cost) was spent')
  })
})

describe('jsonReport', () => {
  it('holds every result and the totals', () => {
    const json = JSON.parse(
      jsonReport(summary([result({ costUsd: 0.25 }), result({ name: 'B', costUsd: 0.5 })])),
    )
    expect(json.model).toBe('claude-haiku-4-5')
    expect(json.results).toHaveLength(2)
    expect(json.results[0].checks[0]).toEqual({
      label: 'GET /api/health',
      passed: true,
      problem: null,
    })
    expect(json.totals).toEqual({ specs: 2, passed: 2, costUsd: 0.75, tokens: 78_790 })
    expect(JSON.parse(jsonReport(summary([result({})]))).totals.costUsd).toBeNull()
  })
})

describe('a run without the browser tool', () => {
  it('says so in its title, to compare with a run that had it', () => {
    const markdown = markdownReport({ ...summary([result({})]), browserTool: false })
    expect(markdown.split('\n')[0]).toBe(
      '## Agent eval: claude-haiku-4-5, without the browser tool',
    )
  })
})

import type { CheckOutcome } from './run-spec-checks.ts'

/** One spec's row of the table (docs/product/agent-eval.md "Output"). */
export type SpecResult = {
  name: string
  file: string
  /** `skipped`: not started, the budget (--max-cost) was spent. */
  status: 'passed' | 'failed' | 'skipped'
  /** Why it failed or was skipped, besides its checks (a timeout, a failed run, an error). */
  reason: string | undefined
  /** The checks that ran (none when the spec failed before them). */
  checks: CheckOutcome[]
  /** The spec's number of checks. */
  checksTotal: number
  /** The product's own check after the last run (docs/product/checks.md); 'none' without one. */
  productCheck: 'passed' | 'failed' | 'none' | 'running'
  repair: boolean
  /**
   * The app's acceptance tests: whether the agent wrote any, and the last check's acceptance
   * part ('passed', 'failed', 'skipped', 'timed-out', or 'none' without a check).
   */
  acceptance: { written: boolean; state: string }
  /** Model steps (one per model call) and tool calls, from the stream. */
  steps: number
  toolCalls: number
  tokens: number
  /** Dollars, from the model's list prices; undefined when it has none (the Demo model). */
  costUsd: number | undefined
  durationMs: number
}

export type EvalSummary = {
  model: string
  /** Whether the agent had its browser tool (`--browser-tool`). */
  browserTool: boolean
  startedAt: string
  results: SpecResult[]
  /** Set when --max-cost stopped new specs from starting. */
  budgetStop: { maxCostUsd: number; spentUsd: number } | undefined
}

export function skippedResult(
  spec: { name: string; file: string; checks: unknown[] },
  reason: string,
): SpecResult {
  return {
    name: spec.name,
    file: spec.file,
    status: 'skipped',
    reason,
    checks: [],
    checksTotal: spec.checks.length,
    productCheck: 'none',
    repair: false,
    acceptance: { written: false, state: 'none' },
    steps: 0,
    toolCalls: 0,
    tokens: 0,
    costUsd: undefined,
    durationMs: 0,
  }
}

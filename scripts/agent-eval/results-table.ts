import type { EvalSummary, SpecResult } from './spec-result.ts'

// The evaluation's report (docs/product/agent-eval.md "Output"): a Markdown table with a row per
// spec and a totals row, then why each failed spec failed; and the same as JSON.

const header = [
  'Spec',
  'Result',
  'Checks',
  'Product check',
  'Repair',
  'Acceptance tests',
  'Steps',
  'Tool calls',
  'Tokens',
  'Cost',
  'Time',
]

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')
const row = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`
const count = (value: number) => value.toLocaleString('en-US')
export const formatCost = (usd: number | undefined) =>
  usd === undefined ? '—' : `$${usd.toFixed(usd >= 1 ? 2 : 4)}`
export const formatSeconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/** The dollars of the results that have a cost; undefined when none has. */
export function spentCost(results: SpecResult[]): number | undefined {
  const priced = results.filter((result) => result.costUsd !== undefined)
  return priced.length === 0
    ? undefined
    : priced.reduce((total, result) => total + (result.costUsd ?? 0), 0)
}

/** 'written, passed', 'none written, skipped': whether the agent wrote tests, and how they did. */
const acceptanceCell = (acceptance: SpecResult['acceptance']) =>
  `${acceptance.written ? 'written' : 'none written'}, ${acceptance.state}`

function resultRow(result: SpecResult): string {
  const passedChecks = result.checks.filter((check) => check.passed).length
  const skipped = result.status === 'skipped'
  return row([
    result.name,
    result.status,
    skipped ? '—' : `${passedChecks}/${result.checksTotal}`,
    skipped ? '—' : result.productCheck,
    skipped ? '—' : result.repair ? 'yes' : 'no',
    skipped ? '—' : acceptanceCell(result.acceptance),
    count(result.steps),
    count(result.toolCalls),
    count(result.tokens),
    formatCost(result.costUsd),
    formatSeconds(result.durationMs),
  ])
}

function totalsRow(results: SpecResult[]): string {
  const sum = (pick: (result: SpecResult) => number) =>
    results.reduce((total, result) => total + pick(result), 0)
  const passed = results.filter((result) => result.status === 'passed').length
  return row([
    '**Total**',
    `${passed}/${results.length} passed`,
    `${sum((result) => result.checks.filter((check) => check.passed).length)}/${sum((result) => result.checksTotal)}`,
    `${results.filter((result) => result.productCheck === 'passed').length} passed`,
    `${results.filter((result) => result.repair).length}`,
    `${results.filter((result) => result.acceptance.written).length} written, ${results.filter((result) => result.acceptance.state === 'passed').length} passed`,
    count(sum((result) => result.steps)),
    count(sum((result) => result.toolCalls)),
    count(sum((result) => result.tokens)),
    formatCost(spentCost(results)),
    formatSeconds(sum((result) => result.durationMs)),
  ])
}

/** Why each spec that did not pass did not, one line per reason or failed check. */
function failureLines(results: SpecResult[]): string[] {
  return results
    .filter((result) => result.status !== 'passed')
    .flatMap((result) => [
      ...(result.reason ? [`- **${result.name}**: ${result.reason}`] : []),
      ...result.checks
        .filter((check) => !check.passed)
        .map((check) => `- **${result.name}**, ${check.label}: ${check.problem ?? 'failed'}`),
    ])
}

export function markdownReport(summary: EvalSummary): string {
  const lines = [
    `## Agent eval: ${summary.model}${summary.browserTool ? '' : ', without the browser tool'}`,
    '',
    `Started ${summary.startedAt}.`,
    '',
    row(header),
    `|${header.map(() => '---').join('|')}|`,
    ...summary.results.map(resultRow),
    totalsRow(summary.results),
  ]
  if (summary.budgetStop) {
    const skipped = summary.results.filter((result) => result.status === 'skipped').length
    lines.push(
      '',
      `Budget reached: ${formatCost(summary.budgetStop.spentUsd)} spent of --max-cost ` +
        `${formatCost(summary.budgetStop.maxCostUsd)}; ${skipped} spec(s) not started.`,
    )
  }
  const failures = failureLines(summary.results)
  if (failures.length > 0) lines.push('', '### Not passed', '', ...failures)
  return `${lines.join('\n')}\n`
}

export function jsonReport(summary: EvalSummary): string {
  const passed = summary.results.filter((result) => result.status === 'passed').length
  const rounded = {
    ...summary,
    results: summary.results.map((result) => ({
      ...result,
      durationMs: Math.round(result.durationMs),
    })),
  }
  // Unknown values (no cost, no reason) are null rather than left out.
  const replacer = (_key: string, value: unknown) => (value === undefined ? null : value)
  return `${JSON.stringify(
    {
      ...rounded,
      totals: {
        specs: summary.results.length,
        passed,
        costUsd: spentCost(summary.results) ?? null,
        tokens: summary.results.reduce((total, result) => total + result.tokens, 0),
      },
    },
    replacer,
    2,
  )}\n`
}

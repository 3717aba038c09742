import { type CheckReport, countProblems } from '@sprout/protocol/api/checks.ts'

/** '1 problem', '2 problems' (docs/product/checks.md "Shown on the run"). */
export function problemsText(report: Pick<CheckReport, 'parts'>): string {
  const count = countProblems(report)
  return `${count} ${count === 1 ? 'problem' : 'problems'}`
}

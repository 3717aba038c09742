import { CHECK_PART_LABELS, type CheckReport, countProblems } from '@sprout/protocol/api/checks.ts'

/** '1 problem', '2 problems' (docs/product/checks.md "Shown on the run"). */
export function problemsText(report: Pick<CheckReport, 'parts'>): string {
  const count = countProblems(report)
  return `${count} ${count === 1 ? 'problem' : 'problems'}`
}

/** The label of the part a running check is at ('Build'), null before its first part starts. */
export function runningPartLabel(report: Pick<CheckReport, 'state' | 'parts'>): string | null {
  if (report.state !== 'running') return null
  const running = report.parts.find((part) => part.status === 'running')
  return running ? CHECK_PART_LABELS[running.name] : null
}

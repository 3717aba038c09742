import { type CheckReport, checkReportSchema } from '@sprout/protocol/api/checks.ts'
import { CheckReportView } from './check-report-view.tsx'

/** The run_checks tool's output: the check, as the Checks block shows it, compact. */
export function RunChecksView({ output }: { output: unknown }) {
  const report = readReport(output)
  if (!report) return null
  return (
    <div data-testid="run-checks-view">
      <CheckReportView report={report} compact />
    </div>
  )
}

function readReport(output: unknown): CheckReport | undefined {
  const parsed = checkReportSchema.safeParse(output)
  return parsed.success ? parsed.data : undefined
}

import {
  CHECK_PART_LABELS,
  CHECK_TEXTS,
  type CheckPart,
  type CheckReport,
} from '@sprout/protocol/api/checks.ts'
import { useId } from 'react'
import { classNames } from '../../lib/class-names.ts'
import { CheckIcon, WarningIcon } from '../ui/icons.tsx'
import { Spinner } from '../ui/spinner.tsx'
import { CheckProblemItem } from './check-problem-item.tsx'
import { problemsText, runningPartLabel } from './check-status-text.ts'

type CheckReportViewProps = {
  report: CheckReport
  /** The run_checks tool's view: no frame, no heading of its own (the tool's line is one). */
  compact?: boolean
}

const shownStatuses = new Set<CheckPart['status']>(['failed', 'timed-out', 'skipped'])

/**
 * A check as the Checks block shows it (docs/product/checks.md "Shown on the run"): the part in
 * progress while it runs, 'All checks passed', or the problems grouped by part.
 */
export function CheckReportView({ report, compact = false }: CheckReportViewProps) {
  const headingId = useId()
  const parts = report.parts.filter((part) => shownStatuses.has(part.status))
  return (
    <section
      aria-labelledby={compact ? undefined : headingId}
      aria-label={compact ? CHECK_TEXTS.title : undefined}
      data-testid="checks-report"
      data-state={report.state}
      className={classNames(
        'flex min-w-0 flex-col gap-2 text-sm',
        !compact && 'rounded-xl border border-zinc-200 bg-white px-3 py-2.5',
      )}
    >
      <div className="flex items-center gap-2">
        {!compact && (
          <h3 id={headingId} className="font-medium text-zinc-900">
            {CHECK_TEXTS.title}
          </h3>
        )}
        <ReportSummary report={report} />
      </div>
      {parts.length > 0 && (
        <div className="flex flex-col gap-2">
          {parts.map((part) => (
            <PartProblems key={part.name} part={part} />
          ))}
        </div>
      )}
    </section>
  )
}

function ReportSummary({ report }: { report: CheckReport }) {
  if (report.state === 'running') {
    const running = runningPartLabel(report)
    return (
      <p role="status" className="flex items-center gap-1.5 text-zinc-600">
        <Spinner className="size-3 border" />
        <span>{CHECK_TEXTS.running}</span>
        {running && <span className="text-zinc-600">{running}</span>}
      </p>
    )
  }
  if (report.state === 'passed') {
    return (
      <p className="flex items-center gap-1 text-accent-700">
        <CheckIcon className="size-4" />
        {CHECK_TEXTS.passed}
      </p>
    )
  }
  if (report.state === 'interrupted') {
    return <p className="text-zinc-600">{CHECK_TEXTS.interrupted}</p>
  }
  return (
    <p className="flex items-center gap-1 text-red-700">
      <WarningIcon className="size-4" />
      {problemsText(report)}
    </p>
  )
}

function PartProblems({ part }: { part: CheckPart }) {
  const headingId = useId()
  const failed = part.status !== 'skipped'
  const count = Math.max(part.problemCount, part.problems.length)
  const more = count - part.problems.length
  return (
    <div data-testid="check-part" data-part={part.name} className="flex min-w-0 flex-col gap-0.5">
      <h4 id={headingId} className="text-xs font-medium text-zinc-700">
        {CHECK_PART_LABELS[part.name]}
        {failed && count > 0 && <span className="ml-1 text-zinc-500">({count})</span>}
      </h4>
      {part.note && <p className="text-xs text-zinc-500">{part.note}</p>}
      {part.problems.length > 0 && (
        <ul aria-labelledby={headingId} className="flex min-w-0 flex-col">
          {part.problems.map((problem, index) => (
            // Problems have no id; their order within a report is fixed.
            // biome-ignore lint/suspicious/noArrayIndexKey: the list never reorders
            <CheckProblemItem key={index} problem={problem} />
          ))}
        </ul>
      )}
      {more > 0 && <p className="px-1.5 text-xs text-zinc-500">{`+${more} more`}</p>}
    </div>
  )
}

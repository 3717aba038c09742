import type { CheckProblem } from '@sprout/protocol/api/checks.ts'
import { problemPlace } from '@sprout/protocol/text/check-problems.ts'
import { useId, useState } from 'react'
import { classNames } from '../../lib/class-names.ts'
import { ChevronIcon } from '../ui/icons.tsx'
import { ScrollBlock } from '../ui/scroll-block.tsx'
import { CheckScreenshot } from './check-screenshot.tsx'
import { useOpenCheckProblem } from './open-check-problem.ts'

const rowClasses =
  'flex w-full min-w-0 items-baseline gap-2 rounded-md px-1.5 py-0.5 text-left text-xs hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-accent-600'

/**
 * One problem: `file:line:column` and the first line of its message. With a file, inside the
 * builder, it opens the file in the Code tab; otherwise it expands to its full text
 * (docs/product/checks.md "Shown on the run"). A failing acceptance test shows its screenshot.
 */
export function CheckProblemItem({ problem }: { problem: CheckProblem }) {
  const { screenshot } = problem
  return (
    <li data-testid="check-problem">
      <ProblemRow problem={problem} />
      {screenshot && <CheckScreenshot screenshot={screenshot} test={problem.message} />}
    </li>
  )
}

function ProblemRow({ problem }: { problem: CheckProblem }) {
  const open = useOpenCheckProblem()
  const [expanded, setExpanded] = useState(false)
  const textId = useId()
  const place = problemPlace(problem)
  const line = (
    <>
      {place && <span className="shrink-0 font-mono text-zinc-600">{place}</span>}
      <span className="min-w-0 truncate text-zinc-900">{problem.message}</span>
    </>
  )
  const { file } = problem
  if (file && open) {
    return (
      <button
        type="button"
        className={rowClasses}
        title={`Open ${file} in the Code tab`}
        onClick={() => open({ ...problem, file })}
      >
        {line}
      </button>
    )
  }
  const hasMore = problem.text.trim() !== '' && problem.text.trim() !== problem.message.trim()
  if (!hasMore) {
    return <div className="flex min-w-0 items-baseline gap-2 px-1.5 py-0.5 text-xs">{line}</div>
  }
  return (
    <>
      <button
        type="button"
        className={rowClasses}
        aria-expanded={expanded}
        aria-controls={textId}
        onClick={() => setExpanded((shown) => !shown)}
      >
        <ChevronIcon
          className={classNames(
            'size-3 shrink-0 self-center text-zinc-400 transition-transform',
            expanded && 'rotate-90',
          )}
        />
        {line}
      </button>
      {expanded && (
        <ScrollBlock
          id={textId}
          label={problem.message}
          className="mt-1 ml-5 max-h-64 overflow-auto rounded-md bg-zinc-50 p-2 font-mono text-xs whitespace-pre-wrap text-zinc-800"
        >
          {problem.text}
        </ScrollBlock>
      )}
    </>
  )
}

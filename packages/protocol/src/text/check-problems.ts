import {
  CHECK_PART_LABELS,
  type CheckPart,
  type CheckReport,
  countProblems,
} from '../api/checks.ts'

// docs/product/checks.md "One repair": the problems of a check, told to the agent compactly
// (the repair turn's message and the run_checks tool's answer), and the repair turn's title.

/** The repair message's size: the rest of the problems is summarised by count. */
export const REPAIR_MESSAGE_MAX_CHARACTERS = 4000

const PART_NOUNS: Record<CheckPart['name'], [string, string]> = {
  types: ['type error', 'type errors'],
  build: ['build error', 'build errors'],
  health: ['server problem', 'server problems'],
  errors: ['new error', 'new errors'],
  acceptance: ['failing acceptance test', 'failing acceptance tests'],
}

function failedParts(report: Pick<CheckReport, 'parts'>): CheckPart[] {
  return report.parts.filter((part) => part.status === 'failed' || part.status === 'timed-out')
}

function plural(count: number, [one, many]: [string, string]): string {
  return `${count} ${count === 1 ? one : many}`
}

/** 'Fixing 2 type errors…', 'Fixing 1 build error…', or 'Fixing 3 problems…' across parts. */
export function repairTitle(report: Pick<CheckReport, 'parts'>): string {
  const parts = failedParts(report)
  const count = countProblems(report)
  const only = parts.length === 1 ? parts[0] : undefined
  const noun = only ? PART_NOUNS[only.name] : (['problem', 'problems'] as [string, string])
  return `Fixing ${plural(count, noun)}…`
}

/** `src/App.tsx:12:5` or the message alone when the problem points at no file. */
export function problemPlace(problem: CheckPart['problems'][number]): string {
  if (!problem.file) return ''
  if (problem.line === null) return problem.file
  return problem.column === null
    ? `${problem.file}:${problem.line}`
    : `${problem.file}:${problem.line}:${problem.column}`
}

/** An assertion's own lines (Locator, Expected, Received) say what the page did instead. */
const ASSERTION_DETAIL = /^\s*(Locator|Expected|Received|Call log|Timeout)\b/

function problemLine(problem: CheckPart['problems'][number], partName: CheckPart['name']): string {
  const place = problemPlace(problem)
  const line = place ? `${place} ${problem.message}` : problem.message
  if (partName !== 'acceptance') return line
  const details = problem.text
    .split('\n')
    .filter((each) => ASSERTION_DETAIL.test(each))
    .slice(0, 3)
    .map((each) => `  ${each.trim()}`)
  const screenshot = problem.screenshot
    ? ['  (a screenshot of the page at the failure is attached)']
    : []
  return [line, ...details, ...screenshot].join('\n')
}

/**
 * The check's problems, grouped by part, one line each, at most `maxCharacters`: what does not
 * fit is counted ('…and 14 more type errors'). Empty for a check that passed.
 */
export function formatCheckProblems(
  report: Pick<CheckReport, 'parts'>,
  maxCharacters = REPAIR_MESSAGE_MAX_CHARACTERS,
): string {
  const parts = failedParts(report)
  if (parts.length === 0) return ''
  const count = countProblems(report)
  const lines = [`The check after the last run found ${plural(count, ['problem', 'problems'])}:`]
  let length = lines[0]?.length ?? 0
  for (const part of parts) {
    const heading = `\n${CHECK_PART_LABELS[part.name]}${part.note ? ` (${part.note})` : ''}:`
    const shown: string[] = []
    for (const problem of part.problems) {
      const line = problemLine(problem, part.name)
      if (length + heading.length + line.length + 1 > maxCharacters - 80) break
      shown.push(line)
      length += line.length + 1
    }
    lines.push(heading, ...shown)
    length += heading.length
    const rest = Math.max(part.problemCount, part.problems.length) - shown.length
    if (rest > 0)
      lines.push(`…and ${plural(rest, PART_NOUNS[part.name]).replace(/^\d+ /, `${rest} more `)}`)
  }
  return lines.join('\n')
}

/** The repair turn's message: the problems, then what to do. */
export function repairMessage(report: Pick<CheckReport, 'parts'>): string {
  return `${formatCheckProblems(report)}\n\nFix these problems, then stop: the check runs again after this turn.`
}

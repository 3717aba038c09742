import { CHECK_PROBLEMS_KEPT, type CheckProblem } from '@sprout/protocol/api/checks.ts'
import { cutText } from '@sprout/protocol/text/cut-text.ts'

// How the check reads its tools' output (docs/product/checks.md "The check"): tsc's
// `file(line,col): error TSxxxx: message` lines, vite's and rolldown's `[CODE] message` with
// their `╭─[ file:line:col ]` place, and the frames of an error group.

/** The whole text of a problem is kept to this many characters. */
const PROBLEM_TEXT_CHARACTERS = 2000

// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal colours are what is removed
const terminalEscapes = /\u001b\[[0-9;?]*[A-Za-z]/g

export function plainOutput(output: string): string {
  return output.replace(terminalEscapes, '').replace(/\r\n?/g, '\n')
}

export function problem(fields: Partial<CheckProblem> & { message: string }): CheckProblem {
  return {
    file: fields.file ?? null,
    line: fields.line ?? null,
    column: fields.column ?? null,
    message: cutText(fields.message.split('\n')[0]?.trim() ?? '', 300),
    text: cutText(fields.text ?? fields.message, PROBLEM_TEXT_CHARACTERS),
  }
}

/** A path inside the workspace as the app sees it: relative, `/` separators, no `./`. */
function workspacePath(file: string, workspace: string): string {
  const trimmed = file.trim()
  const relative = trimmed.startsWith(`${workspace}/`)
    ? trimmed.slice(workspace.length + 1)
    : trimmed
  return relative.replace(/^\.\//, '')
}

const typeErrorLine = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/

/** tsc --pretty false: one problem per error, its continuation lines in its text. */
export function parseTypeErrors(output: string, workspace: string): CheckProblem[] {
  const problems: CheckProblem[] = []
  for (const line of plainOutput(output).split('\n')) {
    const match = typeErrorLine.exec(line)
    if (match) {
      const [, file = '', lineNumber, column, code, message = ''] = match
      problems.push(
        problem({
          file: workspacePath(file, workspace),
          line: Number(lineNumber),
          column: Number(column),
          message,
          text: `${code}: ${message}`,
        }),
      )
    } else if (line.startsWith('  ') && problems.length > 0) {
      const last = problems[problems.length - 1] as CheckProblem
      last.text = cutText(`${last.text}\n${line.trim()}`, PROBLEM_TEXT_CHARACTERS)
    }
  }
  return problems
}

const buildPlace = /╭─\[\s*(.+?):(\d+):(\d+)\s*\]/

/**
 * vite build's errors: each `[CODE] message` (or a plain first line) with the place rolldown
 * draws under it; without any, one problem with the output's end.
 */
export function parseBuildErrors(output: string, workspace: string): CheckProblem[] {
  const text = plainOutput(output)
  const lines = text.split('\n')
  const problems: CheckProblem[] = []
  lines.forEach((line, index) => {
    const place = buildPlace.exec(line)
    if (!place) return
    const [, file = '', lineNumber, column] = place
    const message = (lines[index - 1] ?? '').replace(/^\s*\[[^\]]+\]\s*/, '').trim()
    const excerpt = lines.slice(index - 1, index + 6).join('\n')
    problems.push(
      problem({
        file: workspacePath(file, workspace),
        line: Number(lineNumber),
        column: Number(column),
        message: message || 'The build failed here',
        text: excerpt,
      }),
    )
  })
  if (problems.length > 0) return problems
  const reason =
    lines.find((line) => /error|failed|cannot|could not/i.test(line) && !/^\s+at /.test(line)) ??
    'The build failed'
  return [problem({ message: reason, text: cutText(text.trim(), PROBLEM_TEXT_CHARACTERS, 'end') })]
}

const framePlace = /\((.+?):(\d+):(\d+)\)\s*$/

/** The first frame of an error group in the app's own code (src/ or server/), if any. */
export function appFrame(stack: readonly string[]): Pick<CheckProblem, 'file' | 'line' | 'column'> {
  for (const line of stack) {
    const match = framePlace.exec(line)
    if (!match) continue
    const [, location = '', lineNumber, column] = match
    const path = location.replace(/^[a-z]+:\/\/[^/]+/i, '').replace(/[?#].*$/, '')
    const inApp = /(?:^|\/)((?:src|server)\/.+)$/.exec(path)
    if (inApp?.[1] && !path.includes('node_modules')) {
      return { file: inApp[1], line: Number(lineNumber), column: Number(column) }
    }
  }
  return { file: null, line: null, column: null }
}

/** At most CHECK_PROBLEMS_KEPT of them, and how many there were. */
export function keptProblems(problems: CheckProblem[]) {
  return { problems: problems.slice(0, CHECK_PROBLEMS_KEPT), problemCount: problems.length }
}

/**
 * shell_exec's output: the command's output, then one bracketed note a line (exit code, timeout or
 * interrupt, truncation). The chat parses it back to show the output alone, '(no output)', and the
 * exit code only when not 0.
 */
export interface ShellOutcome {
  output: string
  exitCode: number | null
  timedOut: boolean
  aborted: boolean
  truncated: boolean
}

export interface ParsedShellOutput {
  output: string
  /** undefined when the text carries no exit code (a timeout, an interrupt, an old format). */
  exitCode: number | undefined
  /** The other notes, as written: timed out, interrupted, output truncated. */
  notes: string[]
}

const exitCodePattern = /^\[exit code (-?\d+|unknown)\]$/
const notePattern = /^\[(timed out after .*|interrupted|output truncated)\]$/

export function formatShellExecOutput(
  outcome: ShellOutcome,
  timeoutSeconds: number,
  maxTimeoutSeconds: number,
): string {
  const notes: string[] = []
  if (outcome.timedOut) {
    notes.push(
      `[timed out after ${timeoutSeconds} s and was killed; pass a larger timeout (up to ${maxTimeoutSeconds}) for long commands]`,
    )
  } else if (outcome.aborted) {
    notes.push('[interrupted]')
  } else {
    notes.push(`[exit code ${outcome.exitCode ?? 'unknown'}]`)
  }
  if (outcome.truncated) notes.push('[output truncated]')
  const output = outcome.output.replace(/\n+$/, '')
  return output.length > 0 ? `${output}\n${notes.join('\n')}` : notes.join('\n')
}

/** Takes the notes off the end of the text; text in any other shape is all output. */
export function parseShellExecOutput(text: string): ParsedShellOutput {
  const lines = text.replace(/\n+$/, '').split('\n')
  let exitCode: number | undefined
  let sawExitCode = false
  const notes: string[] = []
  while (lines.length > 0) {
    const last = lines.at(-1) ?? ''
    const code = exitCodePattern.exec(last)
    if (code && !sawExitCode) {
      sawExitCode = true
      exitCode = code[1] === 'unknown' ? undefined : Number(code[1])
    } else if (notePattern.test(last)) {
      notes.unshift(last.slice(1, -1))
    } else {
      break
    }
    lines.pop()
  }
  return { output: lines.join('\n'), exitCode, notes }
}

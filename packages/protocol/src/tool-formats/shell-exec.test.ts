import { describe, expect, it } from 'vitest'
import { formatShellExecOutput, parseShellExecOutput } from './shell-exec.ts'

const outcome = { output: '', exitCode: 0, timedOut: false, aborted: false, truncated: false }

describe('shell_exec output', () => {
  it('round-trips the output, the exit code and the notes', () => {
    for (const [input, expected] of [
      [
        { ...outcome, output: 'first\nsecond\n', exitCode: 3 },
        { output: 'first\nsecond', exitCode: 3, notes: [] },
      ],
      [{ ...outcome }, { output: '', exitCode: 0, notes: [] }],
      [
        { ...outcome, output: 'x', truncated: true },
        { output: 'x', exitCode: 0, notes: ['output truncated'] },
      ],
      [
        { ...outcome, output: 'slow', timedOut: true },
        {
          output: 'slow',
          exitCode: undefined,
          notes: [
            'timed out after 5 s and was killed; pass a larger timeout (up to 600) for long commands',
          ],
        },
      ],
      [
        { ...outcome, aborted: true },
        { output: '', exitCode: undefined, notes: ['interrupted'] },
      ],
    ] as const) {
      expect(parseShellExecOutput(formatShellExecOutput(input, 5, 600))).toEqual(expected)
    }
  })

  it('keeps what the model reads as before', () => {
    expect(formatShellExecOutput({ ...outcome, output: 'hello\n' }, 5, 600)).toBe(
      'hello\n[exit code 0]',
    )
  })

  it('leaves a bracketed line the command printed itself in the output', () => {
    expect(parseShellExecOutput('[exit code 7]\nreal output\n[exit code 0]')).toEqual({
      output: '[exit code 7]\nreal output',
      exitCode: 0,
      notes: [],
    })
    expect(parseShellExecOutput('just text')).toEqual({
      output: 'just text',
      exitCode: undefined,
      notes: [],
    })
  })
})

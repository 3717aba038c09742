import { describe, expect, it } from 'vitest'
import type { CheckPart } from '../api/checks.ts'
import { formatCheckProblems, repairMessage, repairTitle } from './check-problems.ts'

const problem = (line: number, message = "Type 'number' is not assignable to type 'string'.") => ({
  file: 'src/App.tsx',
  line,
  column: 9,
  message,
  text: message,
})

const part = (
  name: CheckPart['name'],
  problems: CheckPart['problems'],
  count?: number,
): CheckPart => ({
  name,
  status: problems.length > 0 || (count ?? 0) > 0 ? 'failed' : 'passed',
  problems,
  problemCount: count ?? problems.length,
  durationMs: 10,
  note: null,
})

describe('the problems told to the agent (docs/product/checks.md "One repair")', () => {
  it('titles a repair by what it fixes', () => {
    expect(repairTitle({ parts: [part('types', [problem(1), problem(2)])] })).toBe(
      'Fixing 2 type errors…',
    )
    expect(repairTitle({ parts: [part('build', [problem(1)])] })).toBe('Fixing 1 build error…')
    expect(
      repairTitle({ parts: [part('types', [problem(1)]), part('health', [problem(3)])] }),
    ).toBe('Fixing 2 problems…')
  })

  it('lists each problem as file:line:column and its first line, grouped by part', () => {
    const text = formatCheckProblems({ parts: [part('types', [problem(5)]), part('build', [])] })
    expect(text).toBe(
      "The check after the last run found 1 problem:\n\nType check:\nsrc/App.tsx:5:9 Type 'number' is not assignable to type 'string'.",
    )
  })

  it('stays within ~4 KB and counts what it leaves out', () => {
    const many = Array.from({ length: 300 }, (_, index) => problem(index + 1, 'x'.repeat(60)))
    const text = repairMessage({ parts: [part('types', many.slice(0, 50), 300)] })
    expect(text.length).toBeLessThanOrEqual(4200)
    expect(text).toMatch(/…and \d+ more type errors/)
  })

  it('is empty for a check that passed', () => {
    expect(formatCheckProblems({ parts: [part('types', [])] })).toBe('')
  })
})

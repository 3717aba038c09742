import { describe, expect, it } from 'vitest'
import { type DiffLine, diffLines } from './line-diff.ts'

const numbered = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => `line ${from + index}`)

const render = (lines: DiffLine[]) =>
  lines.map((line) => `${{ context: ' ', added: '+', removed: '-' }[line.type]}${line.text}`)

describe('diffLines', () => {
  it('counts and orders a replaced line', () => {
    const diff = diffLines('a\nb\nc', 'a\nB\nc')
    expect(diff.added).toBe(1)
    expect(diff.removed).toBe(1)
    expect(diff.hunks).toHaveLength(1)
    expect(diff.hunks[0]?.lines).toEqual([
      { type: 'context', text: 'a', oldLineNumber: 1, newLineNumber: 1 },
      { type: 'removed', text: 'b', oldLineNumber: 2 },
      { type: 'added', text: 'B', newLineNumber: 2 },
      { type: 'context', text: 'c', oldLineNumber: 3, newLineNumber: 3 },
    ])
  })

  it('keeps 4 lines of context around a change', () => {
    const oldText = numbered(1, 20).join('\n')
    const newText = numbered(1, 20)
      .map((line) => (line === 'line 10' ? 'line ten' : line))
      .join('\n')
    const [hunk, ...rest] = diffLines(oldText, newText).hunks
    expect(rest).toEqual([])
    expect(render(hunk?.lines ?? [])).toEqual([
      ' line 6',
      ' line 7',
      ' line 8',
      ' line 9',
      '-line 10',
      '+line ten',
      ' line 11',
      ' line 12',
      ' line 13',
      ' line 14',
    ])
  })

  it('splits far-apart changes into hunks and joins near ones', () => {
    const lines = numbered(1, 40)
    const far = lines.map((line) => (line === 'line 5' || line === 'line 30' ? 'x' : line))
    expect(diffLines(lines.join('\n'), far.join('\n')).hunks).toHaveLength(2)
    const near = lines.map((line) => (line === 'line 5' || line === 'line 13' ? 'x' : line))
    expect(diffLines(lines.join('\n'), near.join('\n')).hunks).toHaveLength(1)
  })

  it('handles pure insertions, deletions, empty sides and no change', () => {
    expect(diffLines('', 'a\nb')).toMatchObject({ added: 2, removed: 0 })
    expect(diffLines('a\nb\n', '')).toMatchObject({ added: 0, removed: 2 })
    expect(diffLines('same\n', 'same')).toEqual({ added: 0, removed: 0, hunks: [] })
    const inserted = diffLines('a\nc', 'a\nb\nc')
    expect(inserted).toMatchObject({ added: 1, removed: 0 })
    expect(render(inserted.hunks[0]?.lines ?? [])).toEqual([' a', '+b', ' c'])
  })

  it('finds the longest common subsequence inside the changed region', () => {
    const diff = diffLines('a\nx\nb\ny\nc', 'a\nb\nz\nc')
    expect(render(diff.hunks[0]?.lines ?? [])).toEqual([' a', '-x', ' b', '-y', '+z', ' c'])
    expect(diff).toMatchObject({ added: 1, removed: 2 })
  })

  it('degrades to remove-all, add-all for very large inputs', () => {
    const oldText = numbered(1, 3_000).join('\n')
    const newText = numbered(1, 3_000)
      .map((line) => `${line}!`)
      .join('\n')
    expect(diffLines(oldText, newText)).toMatchObject({ added: 3_000, removed: 3_000 })
  })
})

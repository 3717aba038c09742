import { describe, expect, it } from 'vitest'
import { cutText } from './cut-text.ts'

describe('cutText', () => {
  it('keeps text within the length as it is', () => {
    expect(cutText('hello', 5)).toBe('hello')
    expect(cutText('hello', 9, 'end')).toBe('hello')
  })

  it('cuts at the length, from the start or from the end', () => {
    expect(cutText('hello world', 5)).toBe('hello')
    expect(cutText('hello world', 5, 'end')).toBe('world')
    expect(cutText('hello', 0)).toBe('')
  })

  it('never splits an emoji into a lone surrogate', () => {
    const text = `${'a'.repeat(299)}😀 tail`
    const start = cutText(text, 300)
    expect(start).toBe('a'.repeat(299))
    expect(start.isWellFormed()).toBe(true)
    const end = cutText(`head 😀${'b'.repeat(9)}`, 10, 'end')
    expect(end).toBe('b'.repeat(9))
    expect(end.isWellFormed()).toBe(true)
    expect(cutText('😀😀', 2)).toBe('😀')
    expect(cutText('😀😀', 3, 'end')).toBe('😀')
  })
})

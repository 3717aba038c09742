import { describe, expect, test } from 'vitest'
import { capToolOutput } from './tool-output.ts'

describe('capToolOutput', () => {
  test('never cuts an emoji in two, keeping the start or the end', () => {
    const start = capToolOutput(`${'a'.repeat(9)}😀 tail`, { limit: 10 })
    expect(start).toBe(`${'a'.repeat(9)}\n[output cut: 7 more characters were omitted]`)
    expect(start.isWellFormed()).toBe(true)
    const end = capToolOutput(`head 😀${'b'.repeat(9)}`, { limit: 10, keep: 'end' })
    expect(end).toBe(`[output cut: the first 7 characters were omitted]\n${'b'.repeat(9)}`)
    expect(end.isWellFormed()).toBe(true)
  })
})

import { describe, expect, it } from 'vitest'
import { formatRelativeTime } from './relative-time.ts'

const now = new Date(2025, 10, 20, 12, 0)
const ago = (milliseconds: number) => new Date(now.getTime() - milliseconds)
const minute = 60_000

describe('formatRelativeTime', () => {
  it('says "now" under a minute', () => {
    expect(formatRelativeTime(ago(30_000), now)).toBe('now')
    expect(formatRelativeTime(ago(-5 * minute), now)).toBe('now')
  })

  it('counts minutes, hours and days', () => {
    expect(formatRelativeTime(ago(minute), now)).toBe('1m')
    expect(formatRelativeTime(ago(59 * minute), now)).toBe('59m')
    expect(formatRelativeTime(ago(60 * minute), now)).toBe('1h')
    expect(formatRelativeTime(ago(23 * 60 * minute + 59 * minute), now)).toBe('23h')
    expect(formatRelativeTime(ago(24 * 60 * minute), now)).toBe('1d')
    expect(formatRelativeTime(ago(6 * 24 * 60 * minute), now)).toBe('6d')
  })

  it('shows a date from 7 days on', () => {
    expect(formatRelativeTime(new Date(2025, 10, 13, 12, 0), now)).toBe('Nov 13')
    expect(formatRelativeTime(new Date(2024, 11, 31, 12, 0), now)).toBe('Dec 31, 2024')
  })
})

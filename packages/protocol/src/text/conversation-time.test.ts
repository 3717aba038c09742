import { describe, expect, it } from 'vitest'
import { formatConversationTime } from './conversation-time.ts'

// Wednesday 18 June 2025, 15:30 local time (no daylight-saving change in the week before).
const now = new Date(2025, 5, 18, 15, 30)
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000)

describe('formatConversationTime', () => {
  it('says "just now" under a minute, and for clock skew into the future', () => {
    expect(formatConversationTime(minutesAgo(0.5), now)).toBe('just now')
    expect(formatConversationTime(minutesAgo(-2), now)).toBe('just now')
  })

  it('says "x ago" within the hour', () => {
    expect(formatConversationTime(minutesAgo(5), now)).toBe('5m ago')
    expect(formatConversationTime(minutesAgo(59), now)).toBe('59m ago')
  })

  it('shows h:mm a earlier today', () => {
    expect(formatConversationTime(new Date(2025, 5, 18, 15, 7), new Date(2025, 5, 18, 23, 0))).toBe(
      '3:07 PM',
    )
    expect(formatConversationTime(new Date(2025, 5, 18, 0, 5), now)).toBe('12:05 AM')
    expect(formatConversationTime(new Date(2025, 5, 18, 12, 0), now)).toBe('12:00 PM')
  })

  it('prefers "x ago" over the clock within the hour across midnight', () => {
    expect(
      formatConversationTime(new Date(2025, 5, 17, 23, 50), new Date(2025, 5, 18, 0, 10)),
    ).toBe('20m ago')
  })

  it('says "Yesterday" for the previous calendar day', () => {
    expect(formatConversationTime(new Date(2025, 5, 17, 9, 0), now)).toBe('Yesterday')
    expect(formatConversationTime(new Date(2025, 5, 17, 0, 1), now)).toBe('Yesterday')
  })

  it('shows the weekday under 168 hours', () => {
    expect(formatConversationTime(new Date(2025, 5, 16, 9, 0), now)).toBe('Monday')
    expect(formatConversationTime(new Date(2025, 5, 11, 16, 0), now)).toBe('Wednesday')
  })

  it('shows MMM d from 168 hours on', () => {
    expect(formatConversationTime(new Date(2025, 5, 11, 15, 30), now)).toBe('Jun 11')
    expect(formatConversationTime(new Date(2024, 10, 3, 8, 0), now)).toBe('Nov 3')
  })

  it('accepts ISO strings', () => {
    expect(formatConversationTime(minutesAgo(5).toISOString(), now.toISOString())).toBe('5m ago')
  })
})

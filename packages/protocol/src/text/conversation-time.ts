import {
  type DateInput,
  formatClockTime,
  formatMonthDay,
  formatWeekday,
  isSameLocalDay,
  toDate,
} from './calendar-format.ts'

const minute = 60_000
const hour = 60 * minute

/**
 * The conversation list's time (docs/product/limits.md): 'just now' / '5m ago' within the hour,
 * '3:07 PM' today, 'Yesterday', the weekday under 168 hours, else 'Nov 3'. Local time.
 */
export function formatConversationTime(dateInput: DateInput, nowInput: DateInput): string {
  const date = toDate(dateInput)
  const now = toDate(nowInput)
  const elapsed = now.getTime() - date.getTime()
  if (elapsed < minute) return 'just now'
  if (elapsed < hour) return `${Math.floor(elapsed / minute)}m ago`
  if (isSameLocalDay(date, now)) return formatClockTime(date)
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1)
  if (isSameLocalDay(date, yesterday)) return 'Yesterday'
  if (elapsed < 168 * hour) return formatWeekday(date)
  return formatMonthDay(date)
}

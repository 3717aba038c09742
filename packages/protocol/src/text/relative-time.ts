import { type DateInput, formatMonthDay, toDate } from './calendar-format.ts'

const minute = 60_000
const hour = 60 * minute
const day = 24 * hour

/**
 * Relative times (docs/product/limits.md "Times"): 'now', '5m', '3h', '2d' under 7 days, else
 * 'Nov 3' (', 2024' if another year).
 */
export function formatRelativeTime(dateInput: DateInput, nowInput: DateInput): string {
  const date = toDate(dateInput)
  const now = toDate(nowInput)
  const elapsed = now.getTime() - date.getTime()
  if (elapsed < minute) return 'now'
  if (elapsed < hour) return `${Math.floor(elapsed / minute)}m`
  if (elapsed < day) return `${Math.floor(elapsed / hour)}h`
  if (elapsed < 7 * day) return `${Math.floor(elapsed / day)}d`
  const monthDay = formatMonthDay(date)
  return date.getFullYear() === now.getFullYear() ? monthDay : `${monthDay}, ${date.getFullYear()}`
}

// English names, not Intl, so that the output is identical on every machine and in every test.
const monthNames = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
]
const weekdayNames = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']

export type DateInput = Date | string | number

export function toDate(input: DateInput): Date {
  return input instanceof Date ? input : new Date(input)
}

/** 'MMM d', e.g. 'Nov 3' (local time). */
export function formatMonthDay(date: Date): string {
  return `${monthNames[date.getMonth()]} ${date.getDate()}`
}

/** 'h:mm a', e.g. '3:07 PM' (local time). */
export function formatClockTime(date: Date): string {
  const hours = date.getHours()
  const minutes = String(date.getMinutes()).padStart(2, '0')
  return `${hours % 12 || 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`
}

export function formatWeekday(date: Date): string {
  return weekdayNames[date.getDay()] ?? ''
}

export function isSameLocalDay(first: Date, second: Date): boolean {
  return (
    first.getFullYear() === second.getFullYear() &&
    first.getMonth() === second.getMonth() &&
    first.getDate() === second.getDate()
  )
}

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff
const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff

/**
 * At most `length` UTF-16 code units of `text`, from its start or its end, cut one unit shorter
 * where the cut would split a surrogate pair: a lone half is not text, and PostgreSQL's jsonb
 * refuses it (an emoji cut in two would end the agent run that stores it).
 */
export function cutText(text: string, length: number, keep: 'start' | 'end' = 'start'): string {
  const budget = Math.max(0, Math.floor(length))
  if (text.length <= budget) return text
  if (keep === 'start') {
    const splitsPair =
      budget > 0 &&
      isHighSurrogate(text.charCodeAt(budget - 1)) &&
      isLowSurrogate(text.charCodeAt(budget))
    return text.slice(0, splitsPair ? budget - 1 : budget)
  }
  const start = text.length - budget
  const splitsPair =
    budget > 0 &&
    isLowSurrogate(text.charCodeAt(start)) &&
    isHighSurrogate(text.charCodeAt(start - 1))
  return text.slice(splitsPair ? start + 1 : start)
}

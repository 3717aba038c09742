/**
 * Whether `actual` holds `expected` (docs/product/agent-eval.md "Matching JSON"): an object's
 * listed keys match (others may exist), an array's every expected item matches some item of the
 * actual array, anything else is equal. Answers the path of the first mismatch, or undefined.
 */
export function findMismatch(expected: unknown, actual: unknown, at = '$'): string | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${at}: expected an array`
    for (const [index, item] of expected.entries()) {
      if (!actual.some((candidate) => findMismatch(item, candidate) === undefined)) {
        return `${at}[${index}]: no item matches ${JSON.stringify(item)}`
      }
    }
    return undefined
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      return `${at}: expected an object`
    }
    for (const [key, value] of Object.entries(expected)) {
      if (!(key in actual)) return `${at}.${key}: missing`
      const mismatch = findMismatch(value, (actual as Record<string, unknown>)[key], `${at}.${key}`)
      if (mismatch) return mismatch
    }
    return undefined
  }
  return Object.is(expected, actual)
    ? undefined
    : `${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`
}

/**
 * `text` as storable Unicode: lone surrogates and NUL become U+FFFD. PostgreSQL's jsonb refuses
 * both, whatever the source (a model's delta, a program's output, a file's content).
 */
export function toStorableText(text: string): string {
  const wellFormed = text.isWellFormed() ? text : text.toWellFormed()
  return wellFormed.includes('\0') ? wellFormed.replaceAll('\0', '\uFFFD') : wellFormed
}

/** A copy of a JSON value with every string in it, keys too, made storable by `toStorableText`. */
export function toStorableJson(value: unknown): unknown {
  if (typeof value === 'string') return toStorableText(value)
  if (value === null || typeof value !== 'object') return value
  const toJson = (value as { toJSON?: unknown }).toJSON
  if (typeof toJson === 'function') return toStorableJson(toJson.call(value))
  if (Array.isArray(value)) return value.map(toStorableJson)
  const result: Record<string, unknown> = {}
  for (const [key, entry] of Object.entries(value)) {
    if (entry === undefined || typeof entry === 'function' || typeof entry === 'symbol') continue
    result[toStorableText(key)] = toStorableJson(entry)
  }
  return result
}

/** `JSON.stringify(toStorableJson(value))`, without the copy when there is nothing to clean. */
export function storableJson(value: unknown): string {
  const json = JSON.stringify(value)
  return hasUnstorableEscape(json) ? JSON.stringify(toStorableJson(value)) : json
}

/**
 * JSON.stringify writes NUL as `\u0000` and a lone surrogate as `\udXXX`, and a well-formed pair
 * as itself. An escaped backslash before such letters matches too; the value is then cleaned
 * for nothing.
 */
function hasUnstorableEscape(json: string): boolean {
  return json.includes('\\u0000') || /\\ud[89a-f]/i.test(json)
}

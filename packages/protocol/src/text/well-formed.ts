/**
 * `text` as storable Unicode: lone surrogates and NUL become U+FFFD. PostgreSQL's jsonb refuses
 * both, whatever the source (a model's delta, a program's output, a file's content).
 */
export function toStorableText(text: string): string {
  const wellFormed = text.isWellFormed() ? text : text.toWellFormed()
  return wellFormed.includes('\0') ? wellFormed.replaceAll('\0', '\uFFFD') : wellFormed
}

export type JsonSlot = Record<string, unknown> | unknown[]

/**
 * A copy of a JSON value with every string in it, keys too, made storable by `toStorableText`.
 * Iterative: a deeply nested value (an app's error event, a model's output) cannot overflow the
 * stack. `__proto__` stays an own key, as JSON.parse made it.
 */
export function toStorableJson(value: unknown): unknown {
  const root: unknown[] = [undefined]
  const pending: [unknown, JsonSlot, string | number][] = [[value, root, 0]]
  for (let task = pending.pop(); task !== undefined; task = pending.pop()) {
    const [source, target, key] = task
    const item = withToJson(source)
    if (typeof item === 'string') {
      setOwn(target, key, toStorableText(item))
    } else if (item === null || typeof item !== 'object') {
      setOwn(target, key, item)
    } else if (Array.isArray(item)) {
      const copy: unknown[] = new Array(item.length)
      setOwn(target, key, copy)
      for (let index = 0; index < item.length; index++) pending.push([item[index], copy, index])
    } else {
      const copy: Record<string, unknown> = {}
      setOwn(target, key, copy)
      for (const [entryKey, entry] of Object.entries(item)) {
        if (entry === undefined || typeof entry === 'function' || typeof entry === 'symbol')
          continue
        const storableKey = toStorableText(entryKey)
        // Placed now, filled when popped: the copy keeps the source's key order.
        setOwn(copy, storableKey, null)
        pending.push([entry, copy, storableKey])
      }
    }
  }
  return root[0]
}

function withToJson(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value
  const toJson = (value as { toJSON?: unknown }).toJSON
  return typeof toJson === 'function' ? toJson.call(value) : value
}

/** Sets an own property, `__proto__` included, without touching the prototype chain. */
export function setOwn(target: JsonSlot, key: string | number, value: unknown) {
  if (key === '__proto__') {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  } else {
    ;(target as Record<string | number, unknown>)[key] = value
  }
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

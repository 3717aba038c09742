import { type JsonSlot, setOwn } from '@sprout/protocol/text/well-formed.ts'

/** How deep an event's values are kept; anything deeper becomes `tooDeep` (Sentry cuts at 3–10). */
export const eventDepthKept = 16
export const tooDeep = '[too deep]'

/**
 * A copy of a JSON value (an app's error event) with every string in it, keys too, passed
 * through `clean` (storable and redacted), whatever its field: no field list can miss one.
 * Iterative and cut at `maxDepth`, so a deeply nested event cannot overflow the stack.
 */
export function cleanEvent(
  value: unknown,
  clean: (text: string) => string,
  maxDepth = eventDepthKept,
): unknown {
  const root: unknown[] = [undefined]
  const pending: [unknown, JsonSlot, string | number, number][] = [[value, root, 0, 0]]
  for (let task = pending.pop(); task !== undefined; task = pending.pop()) {
    const [source, target, key, depth] = task
    if (typeof source === 'string') {
      setOwn(target, key, clean(source))
    } else if (source === null || typeof source !== 'object') {
      setOwn(target, key, typeof source === 'number' || typeof source === 'boolean' ? source : null)
    } else if (depth >= maxDepth) {
      setOwn(target, key, tooDeep)
    } else if (Array.isArray(source)) {
      const copy: unknown[] = new Array(source.length)
      setOwn(target, key, copy)
      for (let index = 0; index < source.length; index++) {
        pending.push([source[index], copy, index, depth + 1])
      }
    } else {
      const copy: Record<string, unknown> = {}
      setOwn(target, key, copy)
      for (const [entryKey, entry] of Object.entries(source)) {
        const cleanKey = clean(entryKey)
        // Placed now, filled when popped: the copy keeps the source's key order.
        setOwn(copy, cleanKey, null)
        pending.push([entry, copy, cleanKey, depth + 1])
      }
    }
  }
  return root[0]
}

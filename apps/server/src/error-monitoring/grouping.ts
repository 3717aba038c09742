import { createHash } from 'node:crypto'

/** One stack frame as grouping and the stack lines see it. */
export type Frame = {
  function: string
  path: string
  line?: number
  column?: number
  inApp: boolean
}

/**
 * docs/product/error-monitoring.md "Grouping": variable parts of a message become
 * placeholders, so 'User 42 not found' and 'User 7 not found' are one error. Only the first two
 * lines count.
 */
export function normalizeMessage(message: string): string {
  return message
    .split('\n')
    .slice(0, 2)
    .join('\n')
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"`<>)]+/gi, '<url>')
    .replace(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, '<email>')
    .replace(/\b[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\b/gi, '<uuid>')
    .replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\\n]|\\.)*`/g, '<str>')
    .replace(/\b0x[0-9a-f]+\b/gi, '<hex>')
    .replace(/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi, '<hex>')
    .replace(/\b(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{16,}\b/g, '<id>')
    .replace(/\d+(\.\d+)?/g, '<n>')
    .replace(/\s+/g, ' ')
    .trim()
}

/** A frame's file without its origin, query and hash: Vite's `?t=…` must not split a group. */
export function normalizePath(path: string): string {
  return path
    .replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '')
    .replace(/[?#].*$/, '')
    .replace(/^\/@fs\//, '/')
}

/** The in-app frames nearest the throw, at most three, as `function@path`. */
export function topFrames(frames: Frame[]): string[] {
  const inApp = frames.filter((frame) => frame.inApp)
  const chosen = (inApp.length > 0 ? inApp : frames).slice(0, 3)
  return chosen.map((frame) => `${frame.function}@${normalizePath(frame.path)}`)
}

/**
 * The group key: exception type + normalised message + top three in-app frames (frames newest
 * first); an event's own `fingerprint` replaces it, `{{ default }}` standing for this one.
 */
export function fingerprintOf(
  errorType: string,
  message: string,
  frames: Frame[],
  custom: unknown,
): string {
  const defaultParts = [errorType, normalizeMessage(message), ...topFrames(frames)]
  let parts = defaultParts
  if (Array.isArray(custom) && custom.length > 0) {
    parts = custom.flatMap((part) => {
      // JSON.stringify: String() throws on an object whose "toString" is not a function.
      const text = typeof part === 'string' ? part : (JSON.stringify(part) ?? 'null')
      return text === '{{ default }}' || text === '{{default}}' ? defaultParts : [`custom:${text}`]
    })
  }
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 40)
}

/** `at fn (file:line:col)`, as a JavaScript stack shows it. */
export function stackLine(frame: Frame): string {
  const position = [frame.path, frame.line, frame.column].filter((part) => part !== undefined)
  return `at ${frame.function} (${position.join(':')})`
}

/**
 * The one rule for where Sprout sends a browser after sign-in, sign-up, a mailed link or a failed
 * single sign-on: a path on this site, in a spelling no browser, router or library can read as
 * another site. The web app follows only such targets; the server refuses any other.
 */
export const redirectTargetMessage = (field: string) =>
  `Invalid ${field}: it must be a path on this site, such as /settings.`

const parserOrigin = 'https://sprout.invalid'
// C0 and C1 controls (tab, newline and NUL among them) and the Unicode line separators.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const controlCharacter = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/

/**
 * True for `/`, `/applications/x?tab=files#top` and the like. False for anything absolute or
 * protocol-relative (`https://…`, `//…`, `/\…`), and for paths that only become such once a
 * layer decodes or normalizes them: backslashes, control characters (raw or percent-encoded),
 * `.`/`..` or empty segments, encoded slashes and dots (`/.//x`, `/x/..//x`, `/%2e//x`).
 */
export function isSafeRedirectPath(target: unknown): target is string {
  if (typeof target !== 'string' || !target.startsWith('/')) return false
  if (target.includes('\\') || controlCharacter.test(target)) return false
  const pathEnd = target.search(/[?#]/)
  const path = pathEnd === -1 ? target : target.slice(0, pathEnd)
  const decoded = decodedFully(path)
  if (decoded === undefined || decoded.includes('\\') || controlCharacter.test(decoded)) {
    return false
  }
  const segments = decoded.slice(1).split('/')
  const last = segments.length - 1
  for (const [index, segment] of segments.entries()) {
    if (segment === '.' || segment === '..') return false
    if (segment === '' && index !== last) return false
  }
  try {
    return new URL(target, parserOrigin).origin === parserOrigin
  } catch {
    return false
  }
}

/** The path decoded until it stops changing (a layer may decode twice); undefined if malformed. */
function decodedFully(path: string): string | undefined {
  let current = path
  for (let round = 0; round < 4; round++) {
    let next: string
    try {
      next = decodeURIComponent(current)
    } catch {
      return undefined
    }
    if (next === current) return current
    current = next
  }
  return undefined
}

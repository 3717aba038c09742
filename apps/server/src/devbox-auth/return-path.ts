/**
 * The `return` of the preview hand-off may only be a path on that preview origin: no scheme, no
 * host, no protocol-relative `//evil.example`, no backslashes or control characters that browsers
 * would turn into one.
 */
export function safeReturnPath(
  candidate: string | undefined,
  previewOrigin: string,
): string | undefined {
  const value = candidate === undefined || candidate === '' ? '/' : candidate
  if (!value.startsWith('/') || value.startsWith('//')) return undefined
  if (value.includes('\\') || hasControlCharacter(value)) return undefined
  if (/^\/[^/]*%2f/i.test(value) || /%5c/i.test(value)) return undefined
  let resolved: URL
  try {
    resolved = new URL(value, previewOrigin)
  } catch {
    return undefined
  }
  if (resolved.origin !== previewOrigin) return undefined
  return `${resolved.pathname}${resolved.search}${resolved.hash}`
}

function hasControlCharacter(value: string): boolean {
  for (const character of value) {
    const code = character.charCodeAt(0)
    if (code < 0x20 || code === 0x7f) return true
  }
  return false
}

/**
 * Where the preview hand-off (decision 006) sends the browser: `return` only if it stays on the
 * preview origin, else its root. The answer is absolute, so no path (`/.//evil.example`, `/\evil`)
 * can be read as protocol-relative.
 */
export function safeReturnUrl(candidate: string | undefined, previewOrigin: string): string {
  const fallback = new URL('/', previewOrigin).href
  if (candidate === undefined || candidate === '' || !candidate.startsWith('/')) return fallback
  if (hasControlCharacter(candidate) || candidate.includes('\\')) return fallback
  let resolved: URL
  try {
    resolved = new URL(candidate, previewOrigin)
  } catch {
    return fallback
  }
  if (resolved.origin !== new URL(previewOrigin).origin) return fallback
  // `new URL('//x', origin)` already left the origin; a path that still starts with `//` after
  // resolving (`/.//x`) is kept on the origin by collapsing its leading slashes.
  const pathname = resolved.pathname.replace(/^\/{2,}/, '/')
  return `${resolved.origin}${pathname}${resolved.search}${resolved.hash}`
}

function hasControlCharacter(value: string): boolean {
  for (const character of value) {
    const code = character.charCodeAt(0)
    if (code < 0x20 || code === 0x7f) return true
  }
  return false
}

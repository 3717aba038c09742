// A stack as the app's author reads it (docs/product/error-monitoring.md "Builder error list"):
// the app's own frames, at their paths in the workspace, without the preview's address, Vite's
// `?t=` query or the frames of React and other dependencies.

const frameLine = /^(\s*at\s+)(?:(.+?)\s+\()?(.+?):(\d+):(\d+)\)?\s*$/

/** `http://app.preview.localhost:3000/src/App.tsx?t=1700000000` → `src/App.tsx`. */
export function appPath(location: string): string | undefined {
  const path = location
    .replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '')
    .replace(/[?#].*$/, '')
    .replace(/^\/+/, '')
  if (path.includes('node_modules') || path.startsWith('@') || path.includes('/.vite/')) {
    return undefined
  }
  const inApp = /(?:^|\/)((?:src|server)\/.+)$/.exec(path)
  return inApp?.[1]
}

/**
 * The app's own frames of a stack (`at fn (file:line:col)` lines), with workspace paths: at most
 * `limit`. A stack with none keeps its first lines, their addresses shortened.
 */
export function appStackLines(stack: readonly string[], limit = 5): string[] {
  const own: string[] = []
  const other: string[] = []
  for (const line of stack) {
    const match = frameLine.exec(line)
    if (!match) continue
    const [, , name, location = '', row, column] = match
    const path = appPath(location)
    const where = `${path ?? location.replace(/[?#].*$/, '')}:${row}:${column}`
    const shown = name ? `at ${name} (${where})` : `at ${where}`
    if (path) own.push(shown)
    else other.push(shown)
  }
  return (own.length > 0 ? own : other).slice(0, limit)
}

/** The page's path and query, without the preview's address: `/users/42`. */
export function pagePath(url: string | null): string {
  if (!url) return 'unknown'
  return URL.canParse(url) ? `${new URL(url).pathname}${new URL(url).search}` : url
}

// A stack as the app's author reads it (docs/product/error-monitoring.md "Builder error list"):
// the app's own frames, at their paths in the workspace, without the preview's address, Vite's
// `?t=` query or the frames of React, Vite and other dependencies, or of Sprout's own reporter.

const frameLine = /^(\s*at\s+)(?:(.+?)\s+\()?(.+?):(\d+):(\d+)\)?\s*$/

/**
 * Paths that are never the app's code: dependencies (`node_modules`, Vite's pre-bundled
 * `.vite/deps`), Vite's own modules (`@vite/client`, `@react-refresh`, `@id/…`, `@fs/…`) and
 * Sprout's injected reporter (`__sprout/reporter.js`).
 */
function isForeignPath(path: string): boolean {
  return (
    path.includes('node_modules') ||
    path.startsWith('@') ||
    path.includes('.vite/') ||
    path.startsWith('__sprout/') ||
    path.includes('/__sprout/')
  )
}

/** A frame's location without its origin, query and hash: `src/App.tsx`, `assets/index-x.js`. */
function bareLocation(location: string): string {
  return location
    .replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '')
    .replace(/[?#].*$/, '')
    .replace(/^\/+/, '')
}

/** `http://app.preview.localhost:3000/src/App.tsx?t=1700000000` → `src/App.tsx`. */
export function appPath(location: string): string | undefined {
  const path = bareLocation(location)
  if (isForeignPath(path)) return undefined
  const inApp = /(?:^|\/)((?:src|server)\/.+)$/.exec(path)
  return inApp?.[1]
}

/**
 * The app's own frames of a stack (`at fn (file:line:col)` lines), with workspace paths: at most
 * `limit`. A stack with none (a deployed bundle's frames that no map named) keeps its frames that
 * are not known to be someone else's — never a dependency's, Vite's or Sprout's reporter's.
 */
export function appStackLines(stack: readonly string[], limit = 5): string[] {
  const own: string[] = []
  const unknown: string[] = []
  for (const line of stack) {
    const match = frameLine.exec(line)
    if (!match) continue
    const [, , name, location = '', row, column] = match
    const path = appPath(location)
    if (!path && isForeignPath(bareLocation(location))) continue
    const where = `${path ?? location.replace(/[?#].*$/, '')}:${row}:${column}`
    const shown = name ? `at ${name} (${where})` : `at ${where}`
    if (path) own.push(shown)
    else unknown.push(shown)
  }
  return (own.length > 0 ? own : unknown).slice(0, limit)
}

/** The page's path and query, without the preview's address: `/users/42`. */
export function pagePath(url: string | null): string {
  if (!url) return 'unknown'
  return URL.canParse(url) ? `${new URL(url).pathname}${new URL(url).search}` : url
}

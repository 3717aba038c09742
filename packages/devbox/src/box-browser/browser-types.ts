/** The browser tool's bounds (docs/product/tool-calls.md "browser"). */
export const browserLimits = {
  callSeconds: 30,
  width: 1280,
  height: 800,
  /** A PNG past this is sent as a JPEG; past it still, no screenshot. */
  screenshotBytes: 1_000_000,
} as const

/** An action on an element found by its ARIA role and accessible name, as Playwright's getByRole. */
export type BrowserAction =
  | { action: 'click'; role: string; name?: string; exact?: boolean }
  | { action: 'fill'; role: string; name?: string; exact?: boolean; value: string }
  | { action: 'press'; role?: string; name?: string; exact?: boolean; key: string }

export type BrowserRequest = {
  /** A path of the app (`/notes?filter=open`), resolved against its dev server. */
  path: string
  actions: BrowserAction[]
  signal?: AbortSignal
}

/** What a call saw: the page after its actions. */
export type BrowserPage = {
  /** The page's path at the end (it may have navigated), or the whole URL off the app. */
  url: string
  title: string
  /** The HTTP status of the document, when it loaded. */
  status?: number
  actionsDone: number
  /** Why an action (or opening the page) failed; the actions after it were not tried. */
  actionError?: string
  /** Playwright's ARIA snapshot of the page (YAML-like text). */
  snapshot: string
  consoleErrors: string[]
  consoleErrorsDropped: number
  /** Requests that failed, and responses of 400 or more: `GET /api/notes: 500 Internal Server Error`. */
  failedRequests: string[]
  failedRequestsDropped: number
  /** Requests to anywhere but the app's dev server, aborted. */
  blocked: string[]
  screenshot?: { mediaType: 'image/png' | 'image/jpeg'; bytes: Buffer }
  /** Milliseconds into the call of its stages (loaded, acted, snapshot, screenshot), for the bench. */
  timings?: Record<string, number>
  durationMs: number
}

export type BrowserErrorCode =
  | 'refused'
  | 'no-playwright'
  | 'no-dev-server'
  | 'busy'
  | 'timeout'
  | 'aborted'
  | 'failed'

/** A call that could not open the page; its message says what to do. */
export class BrowserError extends Error {
  override name = 'BrowserError'
  readonly code: BrowserErrorCode

  constructor(code: BrowserErrorCode, message: string) {
    super(message)
    this.code = code
  }
}

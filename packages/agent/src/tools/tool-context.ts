import type { BrowserPage, BrowserRequest } from '@sprout/devbox/box-browser/browser-types.ts'
import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import type { CheckReport } from '@sprout/protocol/api/checks.ts'
import type { ErrorGroup, ErrorGroupStatus } from '@sprout/protocol/api/error-monitoring.ts'
import type { StreamRedactor } from '@sprout/protocol/text/redact-secrets.ts'

/** Where web_search sends queries; the tool is only offered when one of these is set. */
export type WebSearchConfig = {
  searxngUrl?: string
  braveApiKey?: string
  tavilyApiKey?: string
}

/** error_reports_update's actions (docs/product/tool-calls.md "Tool inputs"). */
export const errorReportActions = ['resolve', 'suppress', 'update'] as const
export type ErrorReportAction = (typeof errorReportActions)[number]

/**
 * The error groups of the run's application (docs/product/error-monitoring.md): the server wires
 * them to its error monitoring; without them the error tools are not offered.
 */
export type ErrorReportsAccess = {
  list: (status: ErrorGroupStatus, limit: number) => Promise<ErrorGroup[]>
  /** resolve: resolved; suppress: ignored; update: the status stays. Throws for an unknown group. */
  update: (action: ErrorReportAction, groupId: string, comment?: string) => Promise<ErrorGroup>
}

/** Where integration_guide reads its guides, and an optional model that answers from them. */
export type IntegrationGuidesAccess = {
  /** docs/product/integration-guides by default. */
  dir?: string
  /** Answers the question from the guide (a configured model); the guide's sections otherwise. */
  answer?: (input: { integration: string; question: string; guide: string }) => Promise<string>
}

/** What the tools of one agent run work with. */
export type ToolContext = {
  devbox: Pick<Devbox, 'files' | 'exec'> & { devServer?: Pick<Devbox['devServer'], 'logs'> }
  /** Receives shell output while a command runs, already redacted. */
  onToolOutput?: (toolCallId: string, delta: string) => void
  /** Removes secret values; applied to every text a tool returns or streams. */
  redact?: (text: string) => string
  /** Redaction for output that arrives in pieces (a value split across two is still caught). */
  redactStream?: () => StreamRedactor
  webSearch?: WebSearchConfig
  errorReports?: ErrorReportsAccess
  integrationGuides?: IntegrationGuidesAccess
  /** The app's check (docs/product/checks.md); without it run_checks is not offered. */
  checks?: { run: (signal?: AbortSignal) => Promise<CheckReport> }
  /** The app's browser (docs/product/tool-calls.md "browser"); without it the tool is not offered. */
  browser?: { open: (request: BrowserRequest) => Promise<BrowserPage> }
  /** Keeps a browser screenshot with the conversation, for the chat to show (GET /api/images/{id}). */
  storeScreenshot?: (bytes: Buffer) => Promise<{ id: string; width: number; height: number }>
  /** Whether the run's model reads images: a browser screenshot is then an image part. */
  modelReadsImages?: boolean
  fetch?: typeof globalThis.fetch
  /** Injected for deterministic tests; defaults to Math.random and the clock. */
  random?: () => number
  now?: () => Date
}

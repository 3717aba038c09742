import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import type { StreamRedactor } from '@sprout/protocol/text/redact-secrets.ts'

/** Where web_search sends queries; the tool is only offered when one of these is set. */
export type WebSearchConfig = {
  searxngUrl?: string
  braveApiKey?: string
  tavilyApiKey?: string
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
  fetch?: typeof globalThis.fetch
  /** Injected for deterministic tests; defaults to Math.random and the clock. */
  random?: () => number
  now?: () => Date
}

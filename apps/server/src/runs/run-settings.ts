export type RunSettings = {
  /** How often a process marks its runs alive (and looks for runs of dead processes). */
  heartbeatMs: number
  /** A run whose process has not marked it alive for this long is taken as dead. */
  staleAfterMs: number
  /** Provider retries on 429/5xx before a run fails; undefined keeps the AI SDK's default (2). */
  maxRetries: number | undefined
  /** How long a stage-message request waits to be taken (below the client's 30 s timeout). */
  stageTimeoutMs: number
}

export const defaultRunSettings: RunSettings = {
  heartbeatMs: 5_000,
  staleAfterMs: 30_000,
  maxRetries: undefined,
  stageTimeoutMs: 29_000,
}

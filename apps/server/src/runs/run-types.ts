import type { DatabaseHandle } from '@sprout/db/database.ts'
import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import type { ChatImage } from '@sprout/protocol/api/images.ts'
import type { PreviewSelection } from '@sprout/protocol/api/preview-selections.ts'
import type { Config } from '../config/config.ts'
import type { DevboxRuntime } from '../devboxes/runtime/devbox-runtime.ts'
import type { EventStore } from '../stream/event-store.ts'
import type { RunSecrets } from '../vault/service.ts'
import type { ConversationRecord } from './conversation-records.ts'
import type { RunSettings } from './run-settings.ts'

// What a run is made of, shared by the files that start, execute, check and close it.

/** A text, or one that depends on the app's dev box (its pack type), known once the box is open. */
export type SystemPrompt = string | ((box: Devbox | undefined) => string)

export type StartRunInput = {
  conversation: ConversationRecord
  model: string
  /** The system prompt: the builder's or the exploration's, chosen by the caller. */
  system: SystemPrompt
  /** A new user message; without it the run continues the stored history (retry). */
  userMessage?: {
    text: string
    clientId: string | undefined
    images?: ChatImage[]
    /** Elements pointed at in the preview: said to the agent after the text. */
    selections?: PreviewSelection[]
  }
  /** Who sent it (or asked to continue): the author of the run's version. */
  userId?: string
  /** A repair turn: the run whose check found the problems, and the turn's title. */
  repairOf?: { runId: string; title: string }
}

export type ActiveRun = {
  id: string
  conversationId: string
  controller: AbortController
  done: Promise<void>
  /** The server is stopping: the run ends as a restart error, retryable after the restart. */
  shuttingDown: boolean
  /** The agent is done and the closing events are being written. */
  closing: boolean
  /**
   * Settles once the run's row is closed, before its check: a retry or a message sent right
   * after waits for this, not for the check, which may take a minute (decision 028).
   */
  closed: Promise<void>
  markClosed: () => void
  /** Storing the run's opening (the user message) failed: the run ends as failed. */
  openingFailed: boolean
  /**
   * Settles once the opening writes are done (true) or failed (false). The history is replaced
   * only after them: a run that ends at once (a provider's 529) would otherwise race the user
   * message's own insert on PostgreSQL.
   */
  opened: Promise<boolean>
}

/** What a run executes with: this process's parts, and whether it was halted as if crashed. */
export type RunEnvironment = {
  database: DatabaseHandle
  config: Config
  devboxes: DevboxRuntime
  store: EventStore
  settings: RunSettings
  isHalted: () => boolean
  checkpoint: (applicationId: string, commit: () => Promise<unknown>) => Promise<unknown>
  /** The vault: secrets for the agent's commands, and their redaction; none in some tests. */
  secrets?: RunSecrets
}

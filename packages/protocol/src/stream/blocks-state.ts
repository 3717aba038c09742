import type { CheckReport } from '../api/checks.ts'
import type { ChatImage } from '../api/images.ts'
import type { PreviewSelection } from '../api/preview-selections.ts'
import type { StreamChunk, TokenUsage } from './stream-chunk.ts'

/** docs/product/builder.md "Blocks": one rendered piece of the conversation. */
export interface Block {
  /** Stable across replays of the same events, so usable as a React key. */
  id: string
  /**
   * `checks`: a check's report (docs/product/checks.md); `repair`: the repair turn's message,
   * the agent's own, its title in `content` and the problems sent in `reasoningContent`.
   */
  type: 'text' | 'reasoning' | 'tool' | 'error' | 'checks' | 'repair'
  role: 'user' | 'assistant'
  /** Text blocks; error blocks: the error's text; repair blocks: their title. */
  content: string
  /** Reasoning blocks. */
  reasoningContent: string
  /** Tool blocks: null until known. */
  toolName: string | null
  /** Tool blocks: undefined until the whole input has arrived. */
  toolInput: unknown
  /** Tool blocks: the output, the error text, or the output streamed so far (a string). */
  toolOutput: unknown
  toolIsError: boolean
  /** Error blocks: one of chatErrorTypes, another string, or null for the SDK's plain `error`. */
  errorType: string | null
  /** Checks blocks: the report as last sent. */
  checks: CheckReport | null
  /** User messages: the images sent with it (docs/product/images.md). */
  images?: readonly ChatImage[]
  /** User messages: the elements pointed at in the preview (docs/product/builder.md "Select mode"). */
  selections?: readonly PreviewSelection[]
  isComplete: boolean
  isStreaming: boolean
}

export interface StagedMessage {
  id: string
  text: string
}

/** An open text or reasoning part of the stream, keyed by `${type}:${part id}`. */
export interface OpenPart {
  blockId: string
  /** Merged into an earlier text: separate it with a blank line at the first delta. */
  needsSeparator: boolean
}

export interface BlocksState {
  /** Every chat error is a block too, kept in order and replayed with the history. */
  blocks: readonly Block[]
  isRunning: boolean
  /** The user asked to interrupt; cleared when the run ends. */
  isInterrupting: boolean
  isCompacting: boolean
  usage: TokenUsage | null
  /** Messages queued while the agent runs, shown under the chat. */
  stagedMessages: readonly StagedMessage[]
  /** Staged messages the backend answered 'unsent'; cleared by the next finish. */
  failedMessages: readonly StagedMessage[]
  /** The seq of the last envelope applied (applyStreamEnvelope); send it as Last-Event-ID. */
  lastSeq: number | null
  /**
   * Where each run ended: the id of the conversation's last block then → the run's id. The chat
   * puts the run's footer ('3 files changed', docs/product/versions.md "Diffs") after that block.
   */
  runEnds: Readonly<Record<string, string>>
  // Bookkeeping, not for rendering.
  openParts: Readonly<Record<string, OpenPart>>
  /** Local user messages whose echo from the server is still to be suppressed. */
  pendingEchoes: readonly { clientId: string; text: string }[]
  nextBlockNumber: number
}

/** Client-side actions; their types start with LOCAL_ACTION_PREFIX. */
export type LocalBlocksAction =
  /** Shows the user's message at once; its echo (data-user-message) is then suppressed once. */
  | {
      type: 'local-user-message'
      text: string
      clientId: string
      images?: readonly ChatImage[]
      selections?: readonly PreviewSelection[]
    }
  | { type: 'local-interrupt' }
  | { type: 'local-stage'; id: string; text: string }
  /** Escape with staged messages: the web restores them to the input, then clears them here. */
  | { type: 'local-clear-staged' }
  | { type: 'local-clear-failed' }

export type BlocksEvent = StreamChunk | LocalBlocksAction

export function createBlocksState(): BlocksState {
  return {
    blocks: [],
    isRunning: false,
    isInterrupting: false,
    isCompacting: false,
    usage: null,
    stagedMessages: [],
    failedMessages: [],
    lastSeq: null,
    runEnds: {},
    openParts: {},
    pendingEchoes: [],
    nextBlockNumber: 1,
  }
}

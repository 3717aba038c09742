import type { ChatImage } from '@sprout/protocol/api/images.ts'
import type { BlocksState, StagedMessage } from '@sprout/protocol/stream/blocks-state.ts'
import type { ReactNode } from 'react'
import type { ImageAttachments } from '../../hooks/use-image-attachments.ts'
import { IMAGES_AFTER_RUN_HINT, SELECTIONS_AFTER_RUN_HINT } from '../../lib/chat-image-texts.ts'
import { ChatInput } from './chat-input.tsx'
import { ChatTranscript } from './chat-transcript.tsx'
import { ContextUsageReadout } from './context-usage-readout.tsx'
import type { DraftSelections } from './selections/use-draft-selections.ts'
import { StagedMessages } from './staged-messages.tsx'
import type { RenderRunFooter, RenderSecretRequest } from './transcript-groups.tsx'
import { useEscapeAnywhere } from './use-escape-anywhere.ts'

export type ChatPanelProps = {
  state: BlocksState
  stagedMessages?: readonly StagedMessage[]
  draft: string
  onDraftChange: (draft: string) => void
  onSend: (text: string, images: ChatImage[]) => void
  /** The draft's images (docs/product/images.md). */
  attachments?: ImageAttachments
  /** Why the chosen model cannot take the draft's images, or null. */
  imagesRefusal?: string | null
  /** Elements picked in the preview (the builder's chat only). */
  selections?: DraftSelections
  onEscape: () => void
  onInterrupt: () => void
  onRetry?: () => void
  notice?: string | null
  /** A word next to the input about what it holds, e.g. a queued message handed back. */
  draftNote?: string | null
  placeholder: string
  workingText: string
  emptyState: ReactNode
  /** Replaces the transcript, e.g. while the conversation loads. */
  overlay?: ReactNode
  /** Sending is not possible right now (e.g. no model chosen). */
  inputDisabled?: boolean
  /** Whether a message sent while the agent runs is queued (builder) or must wait. */
  canQueue?: boolean
  modelPicker?: ReactNode
  renderSecretRequest?: RenderSecretRequest
  /** After each run's last block (e.g. its '3 files changed'); stable across renders. */
  renderRunFooter?: RenderRunFooter
  /** Accessible name of the chat section. */
  label?: string
}

/** The centre of the builder (and of exploration): transcript, queued messages and the input. */
export function ChatPanel({
  state,
  stagedMessages = [],
  draft,
  onDraftChange,
  onSend,
  attachments,
  imagesRefusal,
  selections,
  onEscape,
  onInterrupt,
  onRetry,
  notice,
  draftNote,
  placeholder,
  workingText,
  emptyState,
  overlay,
  inputDisabled,
  canQueue,
  modelPicker,
  renderSecretRequest,
  renderRunFooter,
  label = 'Chat',
}: ChatPanelProps) {
  useEscapeAnywhere(onEscape)
  return (
    <section aria-label={label} className="flex min-h-0 min-w-0 flex-1 flex-col bg-white">
      {overlay ?? (
        <ChatTranscript
          state={state}
          emptyState={emptyState}
          workingText={workingText}
          onRetry={onRetry}
          renderSecretRequest={renderSecretRequest}
          renderRunFooter={renderRunFooter}
        />
      )}
      <div className="mx-auto flex w-full max-w-3xl flex-col gap-2 px-4 pb-4">
        {notice && (
          <p role="alert" className="text-sm text-red-600">
            {notice}
          </p>
        )}
        {attachments?.error && (
          <p role="alert" className="text-sm text-red-600">
            {attachments.error}
          </p>
        )}
        {state.isRunning && attachments && attachments.items.length > 0 && (
          <p role="status" className="text-sm text-zinc-600">
            {IMAGES_AFTER_RUN_HINT}
          </p>
        )}
        {state.isRunning && selections && selections.items.length > 0 && (
          <p role="status" className="text-sm text-zinc-600">
            {SELECTIONS_AFTER_RUN_HINT}
          </p>
        )}
        {draftNote && (
          <p role="status" className="text-sm text-zinc-600">
            {draftNote}
          </p>
        )}
        <StagedMessages messages={stagedMessages} />
        <ChatInput
          value={draft}
          onChange={onDraftChange}
          onSubmit={onSend}
          attachments={attachments}
          imagesRefusal={imagesRefusal}
          selections={selections}
          onEscape={onEscape}
          placeholder={placeholder}
          disabled={inputDisabled}
          isRunning={state.isRunning}
          canQueue={canQueue}
          isInterrupting={state.isInterrupting}
          onInterrupt={onInterrupt}
          footer={
            <>
              {modelPicker}
              <ContextUsageReadout usage={state.usage} />
            </>
          }
        />
      </div>
    </section>
  )
}

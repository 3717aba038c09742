import type { BlocksState } from '@sprout/protocol/stream/blocks-state.ts'
import type { BlockGroup } from '@sprout/protocol/stream/group-blocks.ts'
import { type ReactNode, useEffect, useRef } from 'react'
import { Spinner } from '../../components/ui/spinner.tsx'
import {
  type RenderRunFooter,
  type RenderSecretRequest,
  TranscriptGroups,
} from './transcript-groups.tsx'
import { useGroupedSlices } from './use-grouped-slices.ts'
import { useProgressiveSlices } from './use-progressive-slices.ts'
import { useScrollFollow } from './use-scroll-follow.ts'

type ChatTranscriptProps = {
  state: BlocksState
  /** Shown while the conversation has no messages. */
  emptyState: ReactNode
  /** Shown while the agent runs but nothing of its answer streams yet. */
  workingText: string
  onRetry?: () => void
  renderSecretRequest?: RenderSecretRequest
  /** After each run's last block, e.g. its '3 files changed'; stable across renders. */
  renderRunFooter?: RenderRunFooter
}

/**
 * The chat's messages, grouped actions and errors, following new content at the bottom. Only an
 * error that is the conversation's last block, with no run going, offers '(click to retry)'.
 */
export function ChatTranscript({
  state,
  emptyState,
  workingText,
  onRetry,
  renderSecretRequest,
  renderRunFooter,
}: ChatTranscriptProps) {
  const containerRef = useRef<HTMLDivElement>(null)
  const contentRef = useRef<HTMLDivElement>(null)
  const { scrollToBottom } = useScrollFollow(containerRef, contentRef)
  // The user's own new message brings the view back to the bottom, wherever they had scrolled.
  const lastBlock = state.blocks.at(-1)
  const lastUserBlockId = lastBlock?.role === 'user' ? lastBlock.id : null
  useEffect(() => {
    if (lastUserBlockId) scrollToBottom()
  }, [lastUserBlockId, scrollToBottom])

  const { groups, slices } = useGroupedSlices(state.blocks, state.isRunning)
  const renderFrom = useProgressiveSlices(slices.length)
  const last = groups.at(-1)
  // Once the agent's answer has streamed, the run only closes (checkpoint, usage): no 'Working...'.
  // A check shows its own progress.
  const showWorking =
    state.isRunning &&
    !(last?.kind === 'actions' && last.isStreaming) &&
    !isAgentText(last) &&
    last?.kind !== 'checks'
  const isEmpty = groups.length === 0 && !state.isRunning
  const canRetry = lastBlock?.type === 'error' && !state.isRunning

  return (
    // Focusable, so the keyboard scrolls it when it holds only text (an exploration's long
    // answer on a phone has no link or button to reach it by).
    <div
      ref={containerRef}
      data-testid="chat-transcript"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the keyboard
      tabIndex={0}
      className="min-h-0 flex-1 overflow-y-auto overscroll-contain focus-visible:outline-2 focus-visible:outline-accent-600"
    >
      <div
        ref={contentRef}
        role="log"
        aria-label="Messages"
        className="mx-auto flex max-w-3xl flex-col gap-4 px-4 py-6"
      >
        {isEmpty && emptyState}
        {slices.slice(renderFrom).map((slice, index, shown) => (
          <TranscriptGroups
            key={slice[0]?.id}
            groups={slice}
            renderSecretRequest={renderSecretRequest}
            onRetry={canRetry && index === shown.length - 1 ? onRetry : undefined}
            runEnds={state.runEnds}
            renderRunFooter={renderRunFooter}
          />
        ))}
        {showWorking && (
          <p className="flex items-center gap-2 text-sm text-zinc-500">
            <Spinner className="size-4" />
            {workingText}
          </p>
        )}
      </div>
    </div>
  )
}

/** The agent's text, streaming or complete: it is the sign of work, or the answer itself. */
function isAgentText(group: BlockGroup | undefined): boolean {
  return group?.kind === 'text' && group.block.role === 'assistant'
}

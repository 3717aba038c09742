import type { BlockGroup } from '@sprout/protocol/stream/group-blocks.ts'
import { memo, type ReactNode } from 'react'
import { ActionGroup } from './action-group.tsx'
import { ChatErrorLine } from './chat-error-line.tsx'
import { MessageBlock } from './message-block.tsx'

export type RenderSecretRequest = (key: string) => ReactNode

/** Same content: the same blocks (the reducer keeps unchanged blocks identical) and state. */
export function isSameGroup(previous: BlockGroup, next: BlockGroup): boolean {
  if (previous === next) return true
  if (previous.kind !== 'actions' || next.kind !== 'actions') {
    return (
      previous.kind !== 'actions' && next.kind === previous.kind && previous.block === next.block
    )
  }
  return (
    previous.isStreaming === next.isStreaming &&
    previous.blocks.length === next.blocks.length &&
    previous.blocks.every((block, index) => block === next.blocks[index])
  )
}

type GroupsProps = {
  groups: readonly BlockGroup[]
  renderSecretRequest?: RenderSecretRequest
  /** Given to the slice whose last group is the conversation's last block, an error. */
  onRetry?: () => void
}

/**
 * A slice of the transcript. A delta changes only the last group, so every earlier slice skips
 * rendering: a long conversation costs one pointer comparison per slice, not a re-render.
 */
export const TranscriptGroups = memo(
  function TranscriptGroups({ groups, renderSecretRequest, onRetry }: GroupsProps) {
    const lastId = groups.at(-1)?.id
    return (
      // Off-screen slices skip style, layout and paint until scrolled near (content-visibility).
      <div className="flex flex-col gap-4 [contain-intrinsic-size:auto_2400px] [content-visibility:auto]">
        {groups.map((group) => (
          <TranscriptGroup
            key={group.id}
            group={group}
            renderSecretRequest={renderSecretRequest}
            onRetry={group.id === lastId ? onRetry : undefined}
          />
        ))}
      </div>
    )
  },
  // useGroupedSlices hands back the same slice array while none of its groups changed.
  (previous, next) =>
    previous.renderSecretRequest === next.renderSecretRequest &&
    previous.onRetry === next.onRetry &&
    previous.groups === next.groups,
)

type GroupProps = {
  group: BlockGroup
  renderSecretRequest?: RenderSecretRequest
  onRetry?: () => void
}

const TranscriptGroup = memo(
  function TranscriptGroup({ group, renderSecretRequest, onRetry }: GroupProps) {
    if (group.kind === 'error') return <ChatErrorLine error={group.block} onRetry={onRetry} />
    return group.kind === 'text' ? (
      <MessageBlock block={group.block} renderSecretRequest={renderSecretRequest} />
    ) : (
      <ActionGroup blocks={group.blocks} isStreaming={group.isStreaming} />
    )
  },
  (previous, next) =>
    previous.renderSecretRequest === next.renderSecretRequest &&
    previous.onRetry === next.onRetry &&
    isSameGroup(previous.group, next.group),
)

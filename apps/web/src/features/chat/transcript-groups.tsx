import type { BlockGroup } from '@sprout/protocol/stream/group-blocks.ts'
import { memo, type ReactNode } from 'react'
import { ActionGroup } from './action-group.tsx'
import { MessageBlock } from './message-block.tsx'

export type RenderSecretRequest = (key: string) => ReactNode

/** Same content: the same blocks (the reducer keeps unchanged blocks identical) and state. */
export function isSameGroup(previous: BlockGroup, next: BlockGroup): boolean {
  if (previous === next) return true
  if (previous.kind === 'text') return next.kind === 'text' && previous.block === next.block
  if (next.kind === 'text') return false
  return (
    previous.isStreaming === next.isStreaming &&
    previous.blocks.length === next.blocks.length &&
    previous.blocks.every((block, index) => block === next.blocks[index])
  )
}

type GroupsProps = { groups: readonly BlockGroup[]; renderSecretRequest?: RenderSecretRequest }

/**
 * A slice of the transcript. A delta changes only the last group, so every earlier slice skips
 * rendering: a long conversation costs one pointer comparison per slice, not a re-render.
 */
export const TranscriptGroups = memo(
  function TranscriptGroups({ groups, renderSecretRequest }: GroupsProps) {
    return (
      // Off-screen slices skip style, layout and paint until scrolled near (content-visibility).
      <div className="flex flex-col gap-4 [contain-intrinsic-size:auto_2400px] [content-visibility:auto]">
        {groups.map((group) => (
          <TranscriptGroup key={group.id} group={group} renderSecretRequest={renderSecretRequest} />
        ))}
      </div>
    )
  },
  // useGroupedSlices hands back the same slice array while none of its groups changed.
  (previous, next) =>
    previous.renderSecretRequest === next.renderSecretRequest && previous.groups === next.groups,
)

type GroupProps = { group: BlockGroup; renderSecretRequest?: RenderSecretRequest }

const TranscriptGroup = memo(
  function TranscriptGroup({ group, renderSecretRequest }: GroupProps) {
    return group.kind === 'text' ? (
      <MessageBlock block={group.block} renderSecretRequest={renderSecretRequest} />
    ) : (
      <ActionGroup blocks={group.blocks} isStreaming={group.isStreaming} />
    )
  },
  (previous, next) =>
    previous.renderSecretRequest === next.renderSecretRequest &&
    isSameGroup(previous.group, next.group),
)

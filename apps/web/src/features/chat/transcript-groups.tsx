import type { BlockGroup } from '@sprout/protocol/stream/group-blocks.ts'
import { Fragment, memo, type ReactNode } from 'react'
import { ChecksBlock } from '../../components/checks/checks-block.tsx'
import { RepairBlock } from '../../components/checks/repair-block.tsx'
import { ActionGroup } from './action-group.tsx'
import { ChatErrorLine } from './chat-error-line.tsx'
import { MessageBlock } from './message-block.tsx'

export type RenderSecretRequest = (key: string) => ReactNode
/** What follows a run's last block, e.g. its '3 files changed' (BlocksState.runEnds). */
export type RenderRunFooter = (runId: string) => ReactNode

function lastBlockId(group: BlockGroup): string | undefined {
  return group.kind === 'actions' ? group.blocks.at(-1)?.id : group.block.id
}

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
  runEnds?: Readonly<Record<string, string>>
  renderRunFooter?: RenderRunFooter
  /** Given to the slice whose last group is the conversation's last block, an error. */
  onRetry?: () => void
}

/**
 * A slice of the transcript. A delta changes only the last group, so every earlier slice skips
 * rendering: a long conversation costs one pointer comparison per slice, not a re-render.
 */
export const TranscriptGroups = memo(
  function TranscriptGroups({
    groups,
    renderSecretRequest,
    onRetry,
    runEnds,
    renderRunFooter,
  }: GroupsProps) {
    const lastId = groups.at(-1)?.id
    return (
      // Off-screen slices skip style, layout and paint until scrolled near (content-visibility).
      <div className="flex flex-col gap-4 [contain-intrinsic-size:auto_2400px] [content-visibility:auto]">
        {groups.map((group) => {
          const endedRun = runEnds?.[lastBlockId(group) ?? '']
          return (
            <Fragment key={group.id}>
              <TranscriptGroup
                group={group}
                renderSecretRequest={renderSecretRequest}
                onRetry={group.id === lastId ? onRetry : undefined}
              />
              {endedRun && renderRunFooter?.(endedRun)}
            </Fragment>
          )
        })}
      </div>
    )
  },
  // useGroupedSlices hands back the same slice array while none of its groups changed; the run
  // ends change only when a run ends.
  (previous, next) =>
    previous.renderSecretRequest === next.renderSecretRequest &&
    previous.onRetry === next.onRetry &&
    previous.groups === next.groups &&
    previous.runEnds === next.runEnds &&
    previous.renderRunFooter === next.renderRunFooter,
)

type GroupProps = {
  group: BlockGroup
  renderSecretRequest?: RenderSecretRequest
  onRetry?: () => void
}

const TranscriptGroup = memo(
  function TranscriptGroup({ group, renderSecretRequest, onRetry }: GroupProps) {
    if (group.kind === 'actions') {
      return <ActionGroup blocks={group.blocks} isStreaming={group.isStreaming} />
    }
    if (group.kind === 'error') return <ChatErrorLine error={group.block} onRetry={onRetry} />
    if (group.kind === 'checks') return <ChecksBlock block={group.block} />
    if (group.kind === 'repair') return <RepairBlock block={group.block} />
    return <MessageBlock block={group.block} renderSecretRequest={renderSecretRequest} />
  },
  (previous, next) =>
    previous.renderSecretRequest === next.renderSecretRequest &&
    previous.onRetry === next.onRetry &&
    isSameGroup(previous.group, next.group),
)

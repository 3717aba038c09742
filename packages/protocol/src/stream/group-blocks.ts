import type { Block } from './blocks-state.ts'

/** What the chat renders: text blocks one by one, runs of tool and reasoning blocks together. */
export type BlockGroup =
  | { kind: 'text'; id: string; block: Block }
  | {
      kind: 'actions'
      /** The first block's id: stable while the group grows. */
      id: string
      /** Only the listed actions (isListedAction). */
      blocks: Block[]
      /** A spinner shows while any action streams, or until the run ends for the last group. */
      isStreaming: boolean
    }

/** A tool is listed once its name and input exist; reasoning once it has text. */
export function isListedAction(block: Block): boolean {
  if (block.type === 'tool') return block.toolName !== null && block.toolInput !== undefined
  if (block.type === 'reasoning') return block.reasoningContent.trim() !== ''
  return false
}

export function groupBlocks(blocks: readonly Block[], isRunning: boolean): BlockGroup[] {
  const groups: BlockGroup[] = []
  let actions: Block[] = []
  let firstActionId: string | null = null
  let anyStreaming = false
  const closeActions = (isLast: boolean) => {
    if (firstActionId === null) return
    const isStreaming = anyStreaming || (isLast && isRunning)
    if (actions.length > 0 || isStreaming) {
      groups.push({ kind: 'actions', id: firstActionId, blocks: actions, isStreaming })
    }
    actions = []
    firstActionId = null
    anyStreaming = false
  }
  for (const block of blocks) {
    if (block.type === 'text') {
      closeActions(false)
      groups.push({ kind: 'text', id: block.id, block })
      continue
    }
    firstActionId ??= block.id
    anyStreaming ||= block.isStreaming
    if (isListedAction(block)) actions.push(block)
  }
  closeActions(true)
  return groups
}

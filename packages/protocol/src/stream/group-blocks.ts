import type { Block } from './blocks-state.ts'

/**
 * What the chat renders: text, error, checks and repair blocks one by one (a check or a repair
 * is never folded into the actions, docs/product/checks.md "Shown on the run"), runs of tool and
 * reasoning blocks together.
 */
export type BlockGroup =
  | { kind: SingleBlockKind; id: string; block: Block }
  | {
      kind: 'actions'
      /** The first block's id: stable while the group grows. */
      id: string
      /** Only the listed actions (isListedAction). */
      blocks: Block[]
      /** A spinner shows while any action streams, or until the run ends for the last group. */
      isStreaming: boolean
    }

export type SingleBlockKind = 'text' | 'error' | 'checks' | 'repair'
const singleBlockKinds = new Set<Block['type']>(['text', 'error', 'checks', 'repair'])

function isSingleBlock(type: Block['type']): type is SingleBlockKind {
  return singleBlockKinds.has(type)
}

/** A tool is listed once its name and input exist; reasoning once it has text. */
export function isListedAction(block: Block): boolean {
  if (block.type === 'tool') return block.toolName !== null && block.toolInput !== undefined
  if (block.type === 'reasoning') return block.reasoningContent.trim() !== ''
  return false
}

export function groupBlocks(blocks: readonly Block[], isRunning: boolean): BlockGroup[] {
  return regroupBlocks(undefined, blocks, isRunning).groups
}

/** A grouping kept between renders: each group with the index of its first block. */
export type Grouping = {
  blocks: readonly Block[]
  isRunning: boolean
  groups: BlockGroup[]
  starts: number[]
}

/**
 * `groupBlocks`, reusing `previous`'s groups that end before the first changed block, so a streamed
 * delta regroups only the last group. Correct because every group starts at a boundary (a single
 * block, or the block after one).
 */
export function regroupBlocks(
  previous: Grouping | undefined,
  blocks: readonly Block[],
  isRunning: boolean,
): Grouping {
  let kept = 0
  if (previous) {
    let changed = 0
    const common = Math.min(previous.blocks.length, blocks.length)
    while (changed < common && previous.blocks[changed] === blocks[changed]) changed++
    if (changed === blocks.length && changed === previous.blocks.length) {
      if (previous.isRunning === isRunning) return previous
    }
    // Keep the groups that start before the changed block, except the one holding it.
    while (kept < previous.starts.length && (previous.starts[kept] as number) <= changed) kept++
    kept = Math.max(0, kept - 1)
  }
  const groups = previous ? previous.groups.slice(0, kept) : []
  const starts = previous ? previous.starts.slice(0, kept) : []
  const from = previous && kept < previous.starts.length ? (previous.starts[kept] as number) : 0
  appendGroups(blocks, kept === 0 ? 0 : from, isRunning, groups, starts)
  return { blocks, isRunning, groups, starts }
}

function appendGroups(
  blocks: readonly Block[],
  from: number,
  isRunning: boolean,
  groups: BlockGroup[],
  starts: number[],
) {
  let actions: Block[] = []
  let firstActionIndex = -1
  let anyStreaming = false
  const closeActions = (isLast: boolean) => {
    if (firstActionIndex === -1) return
    const isStreaming = anyStreaming || (isLast && isRunning)
    if (actions.length > 0 || isStreaming) {
      const id = (blocks[firstActionIndex] as Block).id
      groups.push({ kind: 'actions', id, blocks: actions, isStreaming })
      starts.push(firstActionIndex)
    }
    actions = []
    firstActionIndex = -1
    anyStreaming = false
  }
  for (let index = from; index < blocks.length; index++) {
    const block = blocks[index] as Block
    if (isSingleBlock(block.type)) {
      closeActions(false)
      groups.push({ kind: block.type, id: block.id, block })
      starts.push(index)
      continue
    }
    if (firstActionIndex === -1) firstActionIndex = index
    anyStreaming ||= block.isStreaming
    if (isListedAction(block)) actions.push(block)
  }
  closeActions(true)
}

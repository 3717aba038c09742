import type { Block } from './blocks-state.ts'

// Pure helpers over the block list. They copy the array (not the blocks) on change: a delta
// into a long conversation costs one shallow array copy, no deep cloning.

export function createBlock(fields: Pick<Block, 'id' | 'type' | 'role'> & Partial<Block>): Block {
  return {
    content: '',
    reasoningContent: '',
    toolName: null,
    toolInput: undefined,
    toolOutput: undefined,
    toolIsError: false,
    errorType: null,
    checks: null,
    isComplete: false,
    isStreaming: true,
    ...fields,
  }
}

/** Searches from the end, where the blocks still receiving events almost always are. */
export function findBlockIndex(blocks: readonly Block[], id: string): number {
  for (let index = blocks.length - 1; index >= 0; index--) {
    if (blocks[index]?.id === id) return index
  }
  return -1
}

export function replaceBlockAt(blocks: readonly Block[], index: number, block: Block): Block[] {
  const next = blocks.slice()
  next[index] = block
  return next
}

/**
 * Appends a block. A tool or reasoning block starts an action group, so the assistant text just
 * before it loses its trailing colon ('Let me look at the files:' → 'Let me look at the files').
 */
export function appendBlock(blocks: readonly Block[], block: Block): Block[] {
  const next = blocks.slice()
  const previous = next.at(-1)
  const startsActions = block.type === 'tool' || block.type === 'reasoning'
  if (startsActions && previous && isAssistantText(previous)) {
    const content = previous.content.replace(/:\s*$/, '')
    if (content !== previous.content) next[next.length - 1] = { ...previous, content }
  }
  next.push(block)
  return next
}

export function isAssistantText(block: Block): boolean {
  return block.type === 'text' && block.role === 'assistant'
}

/** Marks every block still open as complete; the same array when none is. */
export function completeOpenBlocks(blocks: readonly Block[]): readonly Block[] {
  let next: Block[] | null = null
  blocks.forEach((block, index) => {
    if (block.isComplete && !block.isStreaming) return
    next ??= blocks.slice()
    next[index] = { ...block, isComplete: true, isStreaming: false }
  })
  return next ?? blocks
}

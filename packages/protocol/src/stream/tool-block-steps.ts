import { appendBlock, createBlock, findBlockIndex, replaceBlockAt } from './block-list.ts'
import type { Block, BlocksState } from './blocks-state.ts'

// The reducer's tool-block steps: a tool block is created by the first tool chunk that names
// its tool, takes its input once, and ignores everything after its output.

export const toolBlockId = (toolCallId: string) => `tool-${toolCallId}`

/** Creates the tool block unless it exists (a duplicate start is dropped). */
export function startTool(
  state: BlocksState,
  event: { toolCallId: string; toolName: string },
): BlocksState {
  const id = toolBlockId(event.toolCallId)
  if (findBlockIndex(state.blocks, id) !== -1) return state
  const block = createBlock({ id, type: 'tool', role: 'assistant', toolName: event.toolName })
  return { ...state, blocks: appendBlock(state.blocks, block) }
}

export function setToolInput(
  state: BlocksState,
  event: { toolCallId: string; toolName: string; input: unknown },
): BlocksState {
  const started = startTool(state, event)
  return updateOpenTool(started, event.toolCallId, (block) =>
    block.toolInput === undefined ? { toolName: event.toolName, toolInput: event.input } : null,
  )
}

/** Applies a change to an open tool block; null from `change` means a duplicate: no change. */
export function updateOpenTool(
  state: BlocksState,
  toolCallId: string,
  change: (block: Block) => Partial<Block> | null,
): BlocksState {
  const index = findBlockIndex(state.blocks, toolBlockId(toolCallId))
  const block = state.blocks[index]
  if (!block || block.isComplete) return state
  const fields = change(block)
  if (!fields) return state
  return { ...state, blocks: replaceBlockAt(state.blocks, index, { ...block, ...fields }) }
}

export function finishTool(
  state: BlocksState,
  toolCallId: string,
  fields: Partial<Block>,
): BlocksState {
  return updateOpenTool(state, toolCallId, () => ({
    ...fields,
    isComplete: true,
    isStreaming: false,
  }))
}

// Long file: the one reducer's switch over every chunk type with the small steps it calls; split
// up, a reader would follow one event across files.
import type { CheckReport } from '../api/checks.ts'
import type { ChatImage } from '../api/images.ts'
import type { PreviewSelection } from '../api/preview-selections.ts'
import { COMPACTION_NOTE_TAG } from '../text/strip-markers.ts'
import {
  appendBlock,
  completeOpenBlocks,
  createBlock,
  findBlockIndex,
  isAssistantText,
  replaceBlockAt,
} from './block-list.ts'
import type {
  Block,
  BlocksEvent,
  BlocksState,
  LocalBlocksAction,
  StagedMessage,
} from './blocks-state.ts'
import { isKnownStreamChunk, type KnownStreamChunk, LOCAL_ACTION_PREFIX } from './stream-chunk.ts'
import { finishTool, setToolInput, startTool, updateOpenTool } from './tool-block-steps.ts'

type HandledEvent = KnownStreamChunk | LocalBlocksAction
type ChunkOf<Type extends HandledEvent['type']> = Extract<HandledEvent, { type: Type }>

/**
 * Folds one stream chunk or local action into the chat's blocks (docs/product/builder.md
 * "Blocks" and "Agent run"). Pure: the same events always give the same state, and no state is mutated.
 * Unknown chunk types (e.g. Anthropic's `custom`) leave the state unchanged.
 */
export function reduceBlocks(state: BlocksState, event: BlocksEvent): BlocksState {
  if (!isHandledEvent(event)) return state
  switch (event.type) {
    case 'start':
      return state.isRunning ? state : { ...state, isRunning: true }
    case 'finish':
      return {
        ...endRun(state),
        isCompacting: false,
        stagedMessages: [],
        failedMessages: [],
      }
    case 'abort':
      return endRun(state)
    case 'text-start':
      return startText(state, `text:${event.id}`)
    case 'reasoning-start':
      return startReasoning(state, `reasoning:${event.id}`)
    case 'text-delta':
      return appendPartDelta(state, `text:${event.id}`, event.delta)
    case 'reasoning-delta':
      return appendPartDelta(state, `reasoning:${event.id}`, event.delta)
    case 'text-end':
      return endPart(state, `text:${event.id}`)
    case 'reasoning-end':
      return endPart(state, `reasoning:${event.id}`)
    case 'tool-input-start':
      return startTool(state, event)
    case 'tool-input-available':
      return setToolInput(state, event)
    case 'tool-input-error':
      return finishTool(startTool(state, event), event.toolCallId, {
        toolInput: event.input,
        toolOutput: event.errorText,
        toolIsError: true,
      })
    case 'tool-output-available':
      return event.preliminary
        ? updateOpenTool(state, event.toolCallId, () => ({ toolOutput: event.output }))
        : finishTool(state, event.toolCallId, { toolOutput: event.output, toolIsError: false })
    case 'tool-output-error':
      return finishTool(state, event.toolCallId, { toolOutput: event.errorText, toolIsError: true })
    case 'data-tool-output-delta':
      return updateOpenTool(state, event.data.toolCallId, (block) => ({
        toolOutput:
          (typeof block.toolOutput === 'string' ? block.toolOutput : '') + event.data.delta,
      }))
    case 'error':
      return setError(state, event.errorText, null)
    case 'data-error': {
      const withError = setError(state, event.data.error, event.data.errorType ?? null)
      return event.data.errorType === 'interrupt' ? endRun(withError) : withError
    }
    case 'data-usage':
      return { ...state, usage: event.data }
    case 'data-user-message':
      return addUserMessage(state, event)
    case 'data-compaction':
      return setCompaction(state, event.data.status === 'started')
    case 'data-staged':
      return answerStaged(state, event.data)
    case 'data-checks':
      return setChecks(state, event.data)
    case 'data-run':
      if (event.data.status === 'running') {
        return state.isRunning ? state : { ...state, isRunning: true }
      }
      return markRunEnd(endRun(state), event.data.runId)
    case 'local-user-message':
      return addLocalUserMessage(state, event)
    case 'local-interrupt':
      return state.isInterrupting ? state : { ...state, isInterrupting: true }
    case 'local-stage':
      return addStaged(state, event)
    case 'local-clear-staged':
      return { ...state, stagedMessages: [] }
    case 'local-clear-failed':
      return { ...state, failedMessages: [] }
    case 'start-step':
    case 'finish-step':
    // The whole input arrives with tool-input-available; partial JSON is not shown.
    case 'tool-input-delta':
      return state
    default:
      return state
  }
}

const localActionTypes: ReadonlySet<string> = new Set<LocalBlocksAction['type']>([
  'local-user-message',
  'local-interrupt',
  'local-stage',
  'local-clear-staged',
  'local-clear-failed',
])

function isHandledEvent(event: BlocksEvent): event is HandledEvent {
  return (
    isKnownStreamChunk(event) ||
    (event.type.startsWith(LOCAL_ACTION_PREFIX) && localActionTypes.has(event.type))
  )
}

/** The run stopped: open blocks are complete and the interrupt request is settled. */
function endRun(state: BlocksState): BlocksState {
  return {
    ...state,
    blocks: completeOpenBlocks(state.blocks),
    openParts: {},
    isRunning: false,
    isInterrupting: false,
  }
}

/** The run ended after the conversation's last block (BlocksState.runEnds). */
function markRunEnd(state: BlocksState, runId: string): BlocksState {
  const lastId = state.blocks.at(-1)?.id
  if (!lastId || state.runEnds[lastId] === runId) return state
  return { ...state, runEnds: { ...state.runEnds, [lastId]: runId } }
}

function nextId(state: BlocksState, prefix: string): [string, number] {
  return [`${prefix}-${state.nextBlockNumber}`, state.nextBlockNumber + 1]
}

function startText(state: BlocksState, partKey: string): BlocksState {
  if (state.openParts[partKey]) return state
  const last = state.blocks.at(-1)
  if (last && isAssistantText(last)) {
    const reopened = { ...last, isComplete: false, isStreaming: true }
    return {
      ...state,
      blocks: replaceBlockAt(state.blocks, state.blocks.length - 1, reopened),
      openParts: {
        ...state.openParts,
        [partKey]: { blockId: last.id, needsSeparator: last.content !== '' },
      },
    }
  }
  const [id, nextBlockNumber] = nextId(state, 'text')
  return {
    ...state,
    nextBlockNumber,
    blocks: appendBlock(state.blocks, createBlock({ id, type: 'text', role: 'assistant' })),
    openParts: { ...state.openParts, [partKey]: { blockId: id, needsSeparator: false } },
  }
}

function startReasoning(state: BlocksState, partKey: string): BlocksState {
  if (state.openParts[partKey]) return state
  const [id, nextBlockNumber] = nextId(state, 'reasoning')
  return {
    ...state,
    nextBlockNumber,
    blocks: appendBlock(state.blocks, createBlock({ id, type: 'reasoning', role: 'assistant' })),
    openParts: { ...state.openParts, [partKey]: { blockId: id, needsSeparator: false } },
  }
}

function appendPartDelta(state: BlocksState, partKey: string, delta: string): BlocksState {
  const part = state.openParts[partKey]
  if (!part || delta === '') return state
  const index = findBlockIndex(state.blocks, part.blockId)
  const block = state.blocks[index]
  if (!block || block.isComplete) return state
  if (block.type === 'reasoning') {
    const reasoningContent = block.reasoningContent + delta
    return { ...state, blocks: replaceBlockAt(state.blocks, index, { ...block, reasoningContent }) }
  }
  const separator = part.needsSeparator ? paragraphSeparator(block.content, delta) : ''
  const content = block.content + separator + delta
  const next = { ...state, blocks: replaceBlockAt(state.blocks, index, { ...block, content }) }
  if (!part.needsSeparator) return next
  return {
    ...next,
    openParts: { ...state.openParts, [partKey]: { ...part, needsSeparator: false } },
  }
}

/** Merged texts are separate paragraphs: make sure a blank line lies between them. */
function paragraphSeparator(content: string, delta: string): string {
  if (content === '') return ''
  const newlines = (/\n*$/.exec(content)?.[0].length ?? 0) + (/^\n*/.exec(delta)?.[0].length ?? 0)
  return '\n'.repeat(Math.max(0, 2 - newlines))
}

function endPart(state: BlocksState, partKey: string): BlocksState {
  const part = state.openParts[partKey]
  if (!part) return state
  const { [partKey]: _ended, ...openParts } = state.openParts
  const stillOpen = Object.values(openParts).some((other) => other.blockId === part.blockId)
  const index = findBlockIndex(state.blocks, part.blockId)
  const block = state.blocks[index]
  if (!block || stillOpen) return { ...state, openParts }
  const completed = { ...block, isComplete: true, isStreaming: false }
  return { ...state, openParts, blocks: replaceBlockAt(state.blocks, index, completed) }
}

/** Appends an error block; the same error repeated at the end of the conversation shows once. */
function setError(state: BlocksState, content: string, errorType: string | null): BlocksState {
  const last = state.blocks.at(-1)
  if (last?.type === 'error' && last.content === content && last.errorType === errorType) {
    return state
  }
  const [id, nextBlockNumber] = nextId(state, 'error')
  const error = createBlock({
    id,
    type: 'error',
    role: 'assistant',
    content,
    errorType,
    isComplete: true,
    isStreaming: false,
  })
  return { ...state, nextBlockNumber, blocks: appendBlock(state.blocks, error) }
}

function addUserMessage(state: BlocksState, event: ChunkOf<'data-user-message'>): BlocksState {
  const { id, text, clientId } = event.data
  const echoIndex = state.pendingEchoes.findIndex((echo) =>
    clientId === undefined ? echo.text.trim() === text.trim() : echo.clientId === clientId,
  )
  if (echoIndex !== -1) {
    return {
      ...state,
      pendingEchoes: state.pendingEchoes.filter((_, index) => index !== echoIndex),
    }
  }
  const blockId = `user-${id}`
  if (findBlockIndex(state.blocks, blockId) !== -1) return state
  const { repair } = event.data
  const block = repair
    ? createBlock({
        id: blockId,
        type: 'repair',
        role: 'assistant',
        content: repair.title,
        reasoningContent: text,
        isComplete: true,
        isStreaming: false,
      })
    : userBlock(blockId, text, event.data)
  return { ...state, blocks: appendBlock(state.blocks, block) }
}

/** A check's report replaces the one before it in its block (docs/product/checks.md). */
function setChecks(state: BlocksState, report: CheckReport): BlocksState {
  const blockId = `checks-${report.id}`
  const index = findBlockIndex(state.blocks, blockId)
  const done = report.state !== 'running'
  const block = createBlock({
    id: blockId,
    type: 'checks',
    role: 'assistant',
    checks: report,
    isComplete: done,
    isStreaming: !done,
  })
  if (index === -1) return { ...state, blocks: appendBlock(state.blocks, block) }
  return { ...state, blocks: replaceBlockAt(state.blocks, index, block) }
}

function addLocalUserMessage(
  state: BlocksState,
  action: ChunkOf<'local-user-message'>,
): BlocksState {
  const blockId = `local-${action.clientId}`
  if (findBlockIndex(state.blocks, blockId) !== -1) return state
  return {
    ...state,
    blocks: appendBlock(state.blocks, userBlock(blockId, action.text, action)),
    pendingEchoes: [...state.pendingEchoes, { clientId: action.clientId, text: action.text }],
  }
}

function userBlock(
  id: string,
  text: string,
  {
    images,
    selections,
  }: { images?: readonly ChatImage[]; selections?: readonly PreviewSelection[] },
): Block {
  return createBlock({
    id,
    type: 'text',
    role: 'user',
    content: text,
    ...(images && images.length > 0 ? { images } : {}),
    ...(selections && selections.length > 0 ? { selections } : {}),
    isComplete: true,
    isStreaming: false,
  })
}

function setCompaction(state: BlocksState, started: boolean): BlocksState {
  if (state.isCompacting === started) return state
  if (!started) return { ...state, isCompacting: false }
  const [id, nextBlockNumber] = nextId(state, 'compaction')
  // Rendered as the 'Compacting conversation...' line (text/strip-markers.ts).
  const note = userBlock(id, `<${COMPACTION_NOTE_TAG} />`, {})
  return { ...state, nextBlockNumber, isCompacting: true, blocks: appendBlock(state.blocks, note) }
}

function addStaged(state: BlocksState, action: ChunkOf<'local-stage'>): BlocksState {
  if (state.stagedMessages.some((message) => message.id === action.id)) return state
  const staged = { id: action.id, text: action.text }
  return { ...state, stagedMessages: [...state.stagedMessages, staged] }
}

function answerStaged(state: BlocksState, answer: ChunkOf<'data-staged'>['data']): BlocksState {
  const remaining = state.stagedMessages.filter((message) => message.id !== answer.id)
  const wasStaged = remaining.length !== state.stagedMessages.length
  const becomesFailed =
    answer.status === 'unsent' && !state.failedMessages.some((message) => message.id === answer.id)
  if (!wasStaged && !becomesFailed) return state
  const failed: StagedMessage = { id: answer.id, text: answer.text }
  return {
    ...state,
    stagedMessages: wasStaged ? remaining : state.stagedMessages,
    failedMessages: becomesFailed ? [...state.failedMessages, failed] : state.failedMessages,
  }
}

import { applyStreamEnvelope } from '@sprout/protocol/stream/apply-stream-envelope.ts'
import {
  type BlocksState,
  createBlocksState,
  type LocalBlocksAction,
} from '@sprout/protocol/stream/blocks-state.ts'
import { reduceBlocks } from '@sprout/protocol/stream/reduce-blocks.ts'
import type { StreamEnvelope } from '@sprout/protocol/stream/stream-envelope.ts'

export type BlocksStore = {
  getState: () => BlocksState
  subscribe: (listener: () => void) => () => void
  /** Queues a stored envelope; queued ones are reduced together once per animation frame. */
  receive: (envelope: StreamEnvelope) => void
  /** Applies a local action at once, after anything queued, so the order of events holds. */
  dispatch: (action: LocalBlocksAction) => void
  /** The last seq received (queued or applied): where a reconnect resumes. */
  lastSeq: () => number | null
  /** Back to an empty conversation; queued envelopes are dropped. */
  reset: () => void
  /** Applies the queue now (tests, measurements). */
  flush: () => void
}

type FrameScheduler = {
  request: (callback: () => void) => number
  cancel: (handle: number) => void
}

const animationFrames: FrameScheduler = {
  request: (callback) => requestAnimationFrame(callback),
  cancel: (handle) => cancelAnimationFrame(handle),
}

// A hidden tab gets no animation frames; a timer keeps the state (and lastSeq) current anyway.
const hiddenTabDelayMs = 250

/**
 * Holds one conversation's BlocksState for useSyncExternalStore. Every change goes through the
 * protocol's reducer (applyStreamEnvelope / reduceBlocks); a burst of events (a history replay,
 * fast deltas) costs one render per frame instead of one per event.
 */
export function createBlocksStore(frames: FrameScheduler = animationFrames): BlocksStore {
  let state = createBlocksState()
  let queue: StreamEnvelope[] = []
  let frame: number | null = null
  let timer: ReturnType<typeof setTimeout> | null = null
  const listeners = new Set<() => void>()

  const notify = () => {
    for (const listener of listeners) listener()
  }

  const cancelScheduled = () => {
    if (frame !== null) frames.cancel(frame)
    if (timer !== null) clearTimeout(timer)
    frame = null
    timer = null
  }

  const applyQueue = (): boolean => {
    cancelScheduled()
    if (queue.length === 0) return false
    const envelopes = queue
    queue = []
    const before = state
    for (const envelope of envelopes) state = applyStreamEnvelope(state, envelope)
    return state !== before
  }

  const flush = () => {
    if (applyQueue()) notify()
  }

  const schedule = () => {
    if (frame !== null || timer !== null) return
    frame = frames.request(flush)
    if (typeof document !== 'undefined' && document.visibilityState === 'hidden') {
      timer = setTimeout(flush, hiddenTabDelayMs)
    }
  }

  return {
    getState: () => state,
    subscribe: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    receive: (envelope) => {
      queue.push(envelope)
      schedule()
    },
    dispatch: (action) => {
      applyQueue()
      state = reduceBlocks(state, action)
      notify()
    },
    lastSeq: () => {
      const queued = queue.at(-1)?.seq
      if (queued === undefined) return state.lastSeq
      return state.lastSeq === null ? queued : Math.max(queued, state.lastSeq)
    },
    reset: () => {
      cancelScheduled()
      queue = []
      state = createBlocksState()
      notify()
    },
    flush,
  }
}

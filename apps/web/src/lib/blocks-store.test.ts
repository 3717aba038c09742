import type { StreamEnvelope } from '@sprout/protocol/stream/stream-envelope.ts'
import { describe, expect, it } from 'vitest'
import { createBlocksStore } from './blocks-store.ts'

function manualFrames() {
  const callbacks = new Map<number, () => void>()
  let next = 1
  return {
    request: (callback: () => void) => {
      callbacks.set(next, callback)
      return next++
    },
    cancel: (handle: number) => callbacks.delete(handle),
    run: () => {
      const pending = [...callbacks.values()]
      callbacks.clear()
      for (const callback of pending) callback()
    },
    get pending() {
      return callbacks.size
    },
  }
}

const envelope = (seq: number, chunk: StreamEnvelope['chunk']): StreamEnvelope => ({
  seq,
  runId: 'run-1',
  chunk,
})

describe('createBlocksStore', () => {
  it('reduces a burst of envelopes once per frame and notifies once', () => {
    const frames = manualFrames()
    const store = createBlocksStore(frames)
    let notified = 0
    store.subscribe(() => {
      notified += 1
    })
    store.receive(envelope(1, { type: 'start' }))
    store.receive(envelope(2, { type: 'text-start', id: '0' }))
    for (let seq = 3; seq < 103; seq++) {
      store.receive(envelope(seq, { type: 'text-delta', id: '0', delta: 'a' }))
    }
    expect(frames.pending).toBe(1)
    expect(store.getState().blocks).toHaveLength(0)
    expect(store.lastSeq()).toBe(102)
    frames.run()
    expect(notified).toBe(1)
    expect(store.getState().blocks[0]?.content).toBe('a'.repeat(100))
    expect(store.getState().lastSeq).toBe(102)
  })

  it('applies queued envelopes before a local action, keeping the order', () => {
    const frames = manualFrames()
    const store = createBlocksStore(frames)
    store.receive(envelope(1, { type: 'start' }))
    store.dispatch({ type: 'local-stage', id: 's1', text: 'Also add a footer' })
    const state = store.getState()
    expect(state.isRunning).toBe(true)
    expect(state.stagedMessages).toEqual([{ id: 's1', text: 'Also add a footer' }])
    expect(frames.pending).toBe(0)
  })

  it('reset drops the queue and starts an empty conversation', () => {
    const frames = manualFrames()
    const store = createBlocksStore(frames)
    store.receive(envelope(1, { type: 'start' }))
    store.reset()
    frames.run()
    expect(store.getState().isRunning).toBe(false)
    expect(store.lastSeq()).toBeNull()
  })
})

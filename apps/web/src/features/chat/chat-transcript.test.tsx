import { applyStreamEnvelope } from '@sprout/protocol/stream/apply-stream-envelope.ts'
import { type BlocksState, createBlocksState } from '@sprout/protocol/stream/blocks-state.ts'
import { act } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render, rerender } from '../../testing/render.tsx'
import { ChatTranscript } from './chat-transcript.tsx'

/** A conversation of `count` user messages (one group each), as a replay delivers it. */
function conversation(count: number, from = 0, state = createBlocksState()): BlocksState {
  let next = state
  for (let index = from; index < from + count; index++) {
    next = applyStreamEnvelope(next, {
      seq: index + 1,
      runId: null,
      chunk: { type: 'data-user-message', data: { id: `m${index}`, text: `Message ${index}` } },
    })
  }
  return next
}

/** Runs the tasks that render older slices, each scheduled after the previous one renders. */
function fillIn() {
  for (let task = 0; task < 100 && vi.getTimerCount() > 0; task++) {
    act(() => {
      vi.runOnlyPendingTimers()
    })
  }
}

const messagesShown = (container: HTMLElement) =>
  [...container.querySelectorAll('[data-testid="user-message"]')].map((node) => node.textContent)

describe('the chat transcript', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    cleanup()
    vi.useRealTimers()
  })

  const show = (state: BlocksState) => (
    <ChatTranscript state={state} emptyState={<p>Empty</p>} workingText="Working..." />
  )

  it('opens a long conversation with its newest messages, then fills in the older ones', () => {
    const container = render(show(conversation(200)))
    const first = messagesShown(container)
    expect(first.length).toBeLessThan(200)
    expect(first.at(-1)).toContain('Message 199')
    expect(first[0]).not.toContain('Message 0')

    fillIn()
    const all = messagesShown(container)
    expect(all).toHaveLength(200)
    expect(all[0]).toContain('Message 0')
  })

  it("shows each run's footer (its '3 files changed') after the run's last block", () => {
    const base = conversation(4)
    const [, second, , fourth] = base.blocks
    const state = { ...base, runEnds: { [second?.id ?? '']: 'run-a', [fourth?.id ?? '']: 'run-b' } }
    const container = render(
      <ChatTranscript
        state={state}
        emptyState={<p>Empty</p>}
        workingText="Working..."
        renderRunFooter={(runId) => <p data-testid="run-footer">{`footer of ${runId}`}</p>}
      />,
    )
    const footers = [...container.querySelectorAll('[data-testid="run-footer"]')]
    expect(footers.map((footer) => footer.textContent)).toEqual([
      'footer of run-a',
      'footer of run-b',
    ])
    // Each sits right after its run's last block.
    expect(footers[0]?.previousElementSibling?.textContent).toContain(second?.content ?? '')
  })

  it('shows a message the stream adds at once, and a short conversation whole', () => {
    const short = conversation(30)
    const container = render(show(short))
    expect(messagesShown(container)).toHaveLength(30)
  })

  it('renders what streams in while older messages are still filling in', () => {
    const opened = conversation(200)
    const container = render(show(opened))
    rerender(container, show(conversation(1, 200, opened)))
    expect(messagesShown(container).at(-1)).toContain('Message 200')
    fillIn()
    expect(messagesShown(container)).toHaveLength(201)
  })

  it("says 'Working...' while the agent works, not after its answer has streamed", () => {
    const envelopes = [
      { type: 'data-user-message', data: { id: 'u1', text: 'Hi' } },
      { type: 'start' },
      { type: 'start-step' },
    ] as const
    let state = createBlocksState()
    let seq = 0
    const apply = (chunk: unknown) => {
      state = applyStreamEnvelope(state, {
        seq: ++seq,
        runId: 'run-1',
        chunk: chunk as Parameters<typeof applyStreamEnvelope>[1]['chunk'],
      })
    }
    for (const chunk of envelopes) apply(chunk)
    const container = render(show(state))
    expect(container.textContent).toContain('Working...')
    apply({ type: 'text-start', id: 't1' })
    apply({ type: 'text-delta', id: 't1', delta: 'Here is your app.' })
    apply({ type: 'text-end', id: 't1' })
    apply({ type: 'finish-step' })
    rerender(container, show(state))
    expect(state.isRunning).toBe(true)
    expect(container.textContent).toContain('Here is your app.')
    expect(container.textContent).not.toContain('Working...')
  })

  it('keeps every error in order; only the last, with no run going, offers a retry', () => {
    let state = createBlocksState()
    let seq = 0
    const apply = (...chunks: unknown[]) => {
      for (const chunk of chunks) {
        state = applyStreamEnvelope(state, {
          seq: ++seq,
          runId: null,
          chunk: chunk as Parameters<typeof applyStreamEnvelope>[1]['chunk'],
        })
      }
    }
    for (const id of ['1', '2', '3']) {
      apply(
        { type: 'data-user-message', data: { id, text: `Message ${id}` } },
        { type: 'start' },
        { type: 'data-error', data: { error: `Failure ${id}`, errorType: 'internal' } },
        { type: 'finish' },
      )
    }
    const onRetry = vi.fn()
    const showWithRetry = () => (
      <ChatTranscript
        state={state}
        emptyState={<p>Empty</p>}
        workingText="Working..."
        onRetry={onRetry}
      />
    )
    const container = render(showWithRetry())
    const errors = () => [...container.querySelectorAll('[data-testid="chat-error"]')]
    expect(errors().map((node) => node.textContent)).toEqual([
      expect.stringContaining('Failure 1'),
      expect.stringContaining('Failure 2'),
      expect.stringContaining('Failure 3'),
    ])
    expect(errors().map((node) => node.tagName)).toEqual(['P', 'P', 'BUTTON'])
    act(() => (errors()[2] as HTMLElement).click())
    expect(onRetry).toHaveBeenCalledOnce()

    apply({ type: 'start' })
    rerender(container, showWithRetry())
    expect(errors().map((node) => node.tagName)).toEqual(['P', 'P', 'P'])

    apply({ type: 'finish' }, { type: 'data-user-message', data: { id: '4', text: 'Message 4' } })
    rerender(container, showWithRetry())
    expect(errors().map((node) => node.tagName)).toEqual(['P', 'P', 'P'])
  })
})

import { CHECK_TEXTS } from '@sprout/protocol/api/checks.ts'
import { createBlock } from '@sprout/protocol/stream/block-list.ts'
import { type BlocksEvent, createBlocksState } from '@sprout/protocol/stream/blocks-state.ts'
import { groupBlocks } from '@sprout/protocol/stream/group-blocks.ts'
import { reduceBlocks } from '@sprout/protocol/stream/reduce-blocks.ts'
import { repairMessage, repairTitle } from '@sprout/protocol/text/check-problems.ts'
import { afterEach, describe, expect, it } from 'vitest'
import { CheckSettledContext } from '../../components/checks/check-settled.ts'
import { REPAIR_MESSAGE_TOGGLE } from '../../components/checks/repair-block.tsx'
import { failedReport, sampleReport } from '../../testing/fake-checks.ts'
import { buttonWithText, cleanup, click, render, rerender } from '../../testing/render.tsx'
import { ToolCallView } from '../chat/tool-views/tool-call-view.tsx'
import { TranscriptGroups } from '../chat/transcript-groups.tsx'

afterEach(cleanup)

// docs/product/checks.md "Shown on the run" and "One repair": the blocks the stream makes, as the
// chat shows them.

function renderTranscript(events: BlocksEvent[]) {
  const state = events.reduce(reduceBlocks, createBlocksState())
  return render(<TranscriptGroups groups={groupBlocks(state.blocks, state.isRunning)} />)
}

describe('a check and a repair in the chat', () => {
  const failed = failedReport()
  const events: BlocksEvent[] = [
    { type: 'data-user-message', data: { id: 'u1', text: 'Add a title' } },
    { type: 'tool-input-available', toolCallId: 'a', toolName: 'write_file', input: {} },
    { type: 'tool-output-available', toolCallId: 'a', output: 'ok' },
    { type: 'data-checks', data: { ...failed, state: 'running', finishedAt: null } },
    { type: 'data-checks', data: failed },
    {
      type: 'data-user-message',
      data: { id: 'u2', text: repairMessage(failed), repair: { title: repairTitle(failed) } },
    },
  ]

  it('shows the finished check in place of its progress, then the repair in the agent voice', () => {
    const container = renderTranscript(events)
    const blocks = container.querySelectorAll('[data-testid="checks-block"]')
    expect(blocks).toHaveLength(1)
    expect(blocks[0]?.textContent).toContain('2 problems')
    expect(blocks[0]?.textContent).not.toContain(CHECK_TEXTS.running)
    expect(container.querySelectorAll('[data-testid="user-message"]')).toHaveLength(1)
    const repair = container.querySelector('[data-testid="repair-message"]') as HTMLElement
    expect(repair.textContent).toContain('Fixing 2 type errors…')
  })

  it("shows the repair's message on demand", () => {
    const container = renderTranscript(events)
    const toggle = buttonWithText(container, REPAIR_MESSAGE_TOGGLE)
    expect(container.textContent).not.toContain('Fix these problems, then stop')
    click(toggle)
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    expect(container.textContent).toContain('Fix these problems, then stop')
    expect(container.textContent).toContain("src/App.tsx:20:3 Cannot find name 'count'.")
  })
})

describe('the run_checks tool', () => {
  it('shows its check as the Checks block does, open', () => {
    const container = render(
      <ToolCallView
        block={createBlock({
          id: 'tool-1',
          type: 'tool',
          role: 'assistant',
          toolName: 'run_checks',
          toolInput: {},
          toolOutput: failedReport(),
          isComplete: true,
        })}
      />,
    )
    const view = container.querySelector('[data-testid="run-checks-view"]') as HTMLElement
    expect(view.querySelector('section[aria-label="Checks"]')).not.toBeNull()
    expect(view.textContent).toContain("src/App.tsx:12:5Type 'number' is not assignable")
  })

  it('follows a check in progress', () => {
    const running = sampleReport({ state: 'running', finishedAt: null })
    const first = running.parts[0]
    if (first) first.status = 'running'
    const container = render(
      <ToolCallView
        block={createBlock({
          id: 'tool-2',
          type: 'tool',
          role: 'assistant',
          toolName: 'run_checks',
          toolInput: {},
          toolOutput: running,
          isStreaming: true,
        })}
      />,
    )
    expect(container.querySelector('[data-testid="run-checks-view"]')?.textContent).toContain(
      `${CHECK_TEXTS.running}Type check`,
    )
  })
})

describe('a check that ends in the chat', () => {
  const transcript = (events: BlocksEvent[], onSettled: () => void) => {
    const state = events.reduce(reduceBlocks, createBlocksState())
    return (
      <CheckSettledContext.Provider value={onSettled}>
        <TranscriptGroups groups={groupBlocks(state.blocks, state.isRunning)} />
      </CheckSettledContext.Provider>
    )
  }
  const failed = failedReport()
  const running: BlocksEvent = {
    type: 'data-checks',
    data: { ...failed, state: 'running', finishedAt: null },
  }

  it('tells the builder once when a check seen running ends, not for checks ended before', () => {
    const settled: string[] = []
    const onSettled = () => settled.push('settled')
    const container = render(transcript([running], onSettled))
    expect(settled).toEqual([])
    rerender(container, transcript([running, { type: 'data-checks', data: failed }], onSettled))
    expect(settled).toEqual(['settled'])
    rerender(container, transcript([running, { type: 'data-checks', data: failed }], onSettled))
    expect(settled).toEqual(['settled'])

    const reloaded: string[] = []
    render(transcript([{ type: 'data-checks', data: failed }], () => reloaded.push('settled')))
    expect(reloaded).toEqual([])
  })
})

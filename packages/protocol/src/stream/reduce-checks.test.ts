import { describe, expect, it } from 'vitest'
import type { CheckReport } from '../api/checks.ts'
import { type BlocksEvent, createBlocksState } from './blocks-state.ts'
import { reduceBlocks } from './reduce-blocks.ts'

// docs/product/checks.md "Shown on the run": the check's block and the repair turn's line.

const report = (state: CheckReport['state'], problems = 0): CheckReport => ({
  id: 'check-1',
  state,
  trigger: 'run',
  startedAt: '2026-11-26T10:00:00.000Z',
  finishedAt: state === 'running' ? null : '2026-11-26T10:00:04.000Z',
  parts: [
    {
      name: 'types',
      status: state === 'running' ? 'running' : problems > 0 ? 'failed' : 'passed',
      problems: Array.from({ length: problems }, (_, index) => ({
        file: 'src/App.tsx',
        line: index + 1,
        column: 7,
        message: "Type 'number' is not assignable to type 'string'.",
        text: "Type 'number' is not assignable to type 'string'.",
      })),
      problemCount: problems,
      durationMs: state === 'running' ? null : 900,
      note: null,
    },
  ],
})

const reduceAll = (events: BlocksEvent[]) => events.reduce(reduceBlocks, createBlocksState())

describe('reduceBlocks: checks and repairs', () => {
  it('keeps one block per check, replaced as the check goes on, complete once it ends', () => {
    const running = reduceAll([{ type: 'data-checks', id: 'check-1', data: report('running') }])
    expect(running.blocks).toHaveLength(1)
    expect(running.blocks[0]).toMatchObject({ id: 'checks-check-1', type: 'checks' })
    expect(running.blocks[0]?.isComplete).toBe(false)
    const done = [
      { type: 'data-checks', id: 'check-1', data: report('running') },
      { type: 'data-checks', id: 'check-1', data: report('failed', 2) },
    ] satisfies BlocksEvent[]
    const state = reduceAll(done)
    expect(state.blocks).toHaveLength(1)
    expect(state.blocks[0]?.checks?.state).toBe('failed')
    expect(state.blocks[0]?.checks?.parts[0]?.problemCount).toBe(2)
    expect(state.blocks[0]?.isComplete).toBe(true)
  })

  it('shows the repair message as the agent’s line with its title, not a user bubble', () => {
    const state = reduceAll([
      {
        type: 'data-user-message',
        data: {
          id: 'u1',
          text: 'The check after the last run found 2 problems:',
          repair: { title: 'Fixing 2 type errors…' },
        },
      },
    ])
    expect(state.blocks[0]).toMatchObject({
      type: 'repair',
      role: 'assistant',
      content: 'Fixing 2 type errors…',
      reasoningContent: 'The check after the last run found 2 problems:',
    })
  })

  it('replays the same events to the same blocks', () => {
    const events: BlocksEvent[] = [
      { type: 'data-checks', id: 'check-1', data: report('running') },
      { type: 'data-checks', id: 'check-1', data: report('passed') },
    ]
    expect(reduceAll(events)).toEqual(reduceAll(events))
  })
})

describe('reduceBlocks: where runs end', () => {
  it('names the last block before each run’s end, for the run’s footer', () => {
    const state = reduceAll([
      { type: 'data-user-message', data: { id: 'u1', text: 'Build it' } },
      { type: 'data-run', data: { runId: 'run-1', status: 'running' } },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Done.' },
      { type: 'text-end', id: 't' },
      { type: 'finish' },
      { type: 'data-run', data: { runId: 'run-1', status: 'finished' } },
      { type: 'data-checks', id: 'check-1', data: report('passed') },
    ])
    const textBlock = state.blocks.find(
      (block) => block.type === 'text' && block.role === 'assistant',
    )
    expect(state.runEnds).toEqual({ [textBlock?.id ?? '']: 'run-1' })
    expect(state.blocks.at(-1)?.type).toBe('checks')
  })
})

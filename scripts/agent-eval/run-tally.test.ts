import type { CheckReport } from '@sprout/protocol/api/checks.ts'
import type { StreamChunk } from '@sprout/protocol/stream/stream-chunk.ts'
import { describe, expect, it } from 'vitest'
import {
  acceptanceState,
  activeRun,
  applyEnvelope,
  emptyTally,
  productCheckState,
  repairMayFollow,
  totalTokens,
} from './run-tally.ts'

const check = (id: string, state: CheckReport['state']): CheckReport => ({
  id,
  state,
  trigger: 'run',
  parts: [],
  startedAt: '2026-11-26T21:00:00.000Z',
  finishedAt: state === 'running' ? null : '2026-11-26T21:00:05.000Z',
})
const usage = {
  inputTokens: 100,
  cacheReadTokens: 50,
  outputTokens: 20,
  used: 150,
  limit: 1000,
  percentage: 15,
}

/** The events of a run that wrote a type error, its failed check, the repair and its passing check. */
const checkAndRepair: [string | null, StreamChunk][] = [
  // A user message is stored outside any run, just before its run's start (runs/open-run.ts).
  [
    null,
    { type: 'data-user-message', data: { id: 'm1', text: 'Build a counter with a type error' } },
  ],
  ['run-1', { type: 'data-run', data: { runId: 'run-1', status: 'running' } }],
  ['run-1', { type: 'start-step' }],
  ['run-1', { type: 'tool-input-available', toolCallId: 't1', toolName: 'write_file', input: {} }],
  ['run-1', { type: 'data-usage', data: usage }],
  ['run-1', { type: 'start-step' }],
  ['run-1', { type: 'data-usage', data: usage }],
  ['run-1', { type: 'data-run', data: { runId: 'run-1', status: 'finished' } }],
  ['run-1', { type: 'data-checks', id: 'c1', data: check('c1', 'running') }],
  ['run-1', { type: 'data-checks', id: 'c1', data: check('c1', 'failed') }],
  [
    null,
    {
      type: 'data-user-message',
      data: { id: 'm2', text: 'The check after…', repair: { title: 'Fixing 1 type error…' } },
    },
  ],
  ['run-2', { type: 'data-run', data: { runId: 'run-2', status: 'running' } }],
  ['run-2', { type: 'start-step' }],
  ['run-2', { type: 'tool-input-available', toolCallId: 't2', toolName: 'str_replace', input: {} }],
  ['run-2', { type: 'data-usage', data: usage }],
  ['run-2', { type: 'data-run', data: { runId: 'run-2', status: 'finished' } }],
  ['run-2', { type: 'data-checks', id: 'c2', data: check('c2', 'running') }],
  ['run-2', { type: 'data-checks', id: 'c2', data: check('c2', 'passed') }],
]

describe('the run tally', () => {
  it('follows a run, its failed check, the repair turn and its passing check', () => {
    const tally = emptyTally()
    const states: string[] = []
    checkAndRepair.forEach(([runId, chunk], index) => {
      applyEnvelope(tally, { seq: index + 1, runId, chunk })
      states.push(`${activeRun(tally)}/${productCheckState(tally)}/${repairMayFollow(tally)}`)
    })
    // After the first run: its check runs, fails, and a repair may follow until it starts.
    expect(states[7]).toBe('false/none/false')
    expect(states[8]).toBe('false/running/false')
    expect(states[9]).toBe('false/failed/true')
    // Its message announces the repair turn; once that has started, none is awaited any more.
    expect(states[10]).toBe('false/failed/true')
    expect(states[11]).toBe('true/failed/false')
    expect(states.at(-1)).toBe('false/passed/false')
    expect(tally.repairTitle).toBe('Fixing 1 type error…')
    expect(tally.runs.map((run) => [run.id, run.status, run.repair])).toEqual([
      ['run-1', 'finished', false],
      ['run-2', 'finished', true],
    ])
    expect([tally.steps, tally.toolCalls, totalTokens(tally)]).toEqual([3, 2, 510])
  })

  it("judges by the check after the run, not by the agent's own run_checks during it", () => {
    const tally = emptyTally()
    const toolCheck = { ...check('t1', 'failed'), trigger: 'tool' as const }
    const events: [string, StreamChunk][] = [
      ['run-1', { type: 'data-run', data: { runId: 'run-1', status: 'running' } }],
      ['run-1', { type: 'data-checks', id: 't1', data: toolCheck }],
      ['run-1', { type: 'data-run', data: { runId: 'run-1', status: 'finished' } }],
    ]
    for (const [index, [runId, chunk]] of events.entries()) {
      applyEnvelope(tally, { seq: index + 1, runId, chunk })
    }
    expect(productCheckState(tally)).toBe('none')
    expect(repairMayFollow(tally)).toBe(false)
  })

  it('counts an envelope once, however often it is replayed', () => {
    const tally = emptyTally()
    const envelope = { seq: 3, runId: 'run-1', chunk: { type: 'start-step' } as StreamChunk }
    applyEnvelope(tally, envelope)
    applyEnvelope(tally, envelope)
    expect(tally.steps).toBe(1)
  })

  it('expects no repair after a failed check of a repair turn or of an interrupted run', () => {
    const tally = emptyTally()
    const events: [string, StreamChunk][] = [
      ['run-1', { type: 'data-run', data: { runId: 'run-1', status: 'interrupted' } }],
      ['run-1', { type: 'data-checks', id: 'c1', data: check('c1', 'failed') }],
    ]
    for (const [index, [runId, chunk]] of events.entries()) {
      applyEnvelope(tally, { seq: index + 1, runId, chunk })
    }
    expect(repairMayFollow(tally)).toBe(false)
    expect(productCheckState(tally)).toBe('failed')
  })
})

describe('acceptance tests in the tally', () => {
  it('tells whether the agent wrote a test and how the last check ran them', () => {
    const tally = emptyTally()
    const apply = (seq: number, chunk: StreamChunk) =>
      applyEnvelope(tally, { seq, runId: 'run-1', chunk } as Parameters<typeof applyEnvelope>[1])
    apply(1, {
      type: 'tool-input-available',
      toolCallId: 't1',
      toolName: 'write_file',
      input: { path: 'src/App.tsx' },
    })
    expect(tally.acceptanceWritten).toBe(false)
    expect(acceptanceState(tally)).toBe('none')
    apply(2, {
      type: 'tool-input-available',
      toolCallId: 't2',
      toolName: 'write_file',
      input: { path: './tests/acceptance/guest-book.spec.ts' },
    })
    const report = check('c1', 'failed')
    report.parts = [
      {
        name: 'acceptance',
        status: 'failed',
        problems: [],
        problemCount: 1,
        durationMs: 5000,
        note: null,
      },
    ]
    apply(3, { type: 'data-checks', id: 'c1', data: report })
    expect(tally.acceptanceWritten).toBe(true)
    expect(acceptanceState(tally)).toBe('failed')
  })
})

import { describe, expect, it } from 'vitest'
import { type BlocksEvent, createBlocksState } from './blocks-state.ts'
import { type Grouping, groupBlocks, regroupBlocks } from './group-blocks.ts'
import { reduceBlocks } from './reduce-blocks.ts'

const reduceAll = (events: BlocksEvent[]) => events.reduce(reduceBlocks, createBlocksState())

const describeGroups = (events: BlocksEvent[]) => {
  const state = reduceAll(events)
  return groupBlocks(state.blocks, state.isRunning).map((group) =>
    group.kind !== 'actions'
      ? `${group.kind} ${group.block.content}`
      : `actions [${group.blocks.map((block) => block.toolName ?? 'reasoning').join(', ')}]${group.isStreaming ? ' streaming' : ''}`,
  )
}

describe('groupBlocks', () => {
  it('shows an error on its own, ending the actions before it', () => {
    expect(
      describeGroups([
        { type: 'start' },
        { type: 'tool-input-start', toolCallId: 't1', toolName: 'shell_exec' },
        { type: 'tool-input-available', toolCallId: 't1', toolName: 'shell_exec', input: {} },
        { type: 'data-error', data: { error: 'Overloaded', errorType: 'overloaded' } },
        { type: 'finish' },
      ]),
    ).toEqual(['actions [shell_exec]', 'error Overloaded'])
  })

  it('shows a check and a repair on their own, never inside the actions', () => {
    const report = (state: 'running' | 'failed') => ({
      id: 'c1',
      state,
      trigger: 'run' as const,
      parts: [],
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: state === 'running' ? null : '2026-01-01T00:00:05.000Z',
    })
    expect(
      describeGroups([
        { type: 'data-run', data: { status: 'running' } },
        { type: 'tool-input-available', toolCallId: 'a', toolName: 'write_file', input: {} },
        { type: 'tool-output-available', toolCallId: 'a', output: '' },
        { type: 'data-checks', data: report('running') },
        { type: 'data-checks', data: report('failed') },
        {
          type: 'data-user-message',
          data: { id: 'r', text: 'The check found…', repair: { title: 'Fixing 1 type error…' } },
        },
        { type: 'tool-input-available', toolCallId: 'b', toolName: 'str_replace', input: {} },
      ]),
    ).toEqual([
      'actions [write_file]',
      'checks ',
      'repair Fixing 1 type error…',
      'actions [str_replace] streaming',
    ])
  })

  it('groups consecutive tool and reasoning blocks between texts', () => {
    expect(
      describeGroups([
        { type: 'data-user-message', data: { id: 'u', text: 'Build it' } },
        { type: 'reasoning-start', id: 'r' },
        { type: 'reasoning-delta', id: 'r', delta: 'Plan' },
        { type: 'reasoning-end', id: 'r' },
        { type: 'tool-input-available', toolCallId: 'a', toolName: 'list_files', input: {} },
        { type: 'tool-output-available', toolCallId: 'a', output: '' },
        { type: 'tool-input-available', toolCallId: 'b', toolName: 'view_file', input: {} },
        { type: 'tool-output-available', toolCallId: 'b', output: '' },
        { type: 'text-start', id: '0' },
        { type: 'text-delta', id: '0', delta: 'Done' },
        { type: 'text-end', id: '0' },
      ]),
    ).toEqual(['text Build it', 'actions [reasoning, list_files, view_file]', 'text Done'])
  })

  it('lists tools only once their name and input exist, and hides empty reasoning', () => {
    const events: BlocksEvent[] = [
      { type: 'tool-input-start', toolCallId: 'a', toolName: 'write_file' },
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-end', id: 'r' },
    ]
    expect(describeGroups(events)).toEqual(['actions [] streaming'])
    expect(
      describeGroups([
        ...events,
        { type: 'tool-input-available', toolCallId: 'a', toolName: 'write_file', input: {} },
      ]),
    ).toEqual(['actions [write_file] streaming'])
  })

  it('keeps the last group streaming until the end event', () => {
    const events: BlocksEvent[] = [
      { type: 'start' },
      { type: 'tool-input-available', toolCallId: 'a', toolName: 'get_time', input: {} },
      { type: 'tool-output-available', toolCallId: 'a', output: 'noon' },
    ]
    expect(describeGroups(events)).toEqual(['actions [get_time] streaming'])
    expect(describeGroups([...events, { type: 'finish' }])).toEqual(['actions [get_time]'])
  })

  it('drops a finished group with nothing listed', () => {
    expect(
      describeGroups([
        { type: 'reasoning-start', id: 'r' },
        { type: 'reasoning-end', id: 'r' },
        { type: 'text-start', id: '0' },
        { type: 'text-delta', id: '0', delta: 'Hi' },
        { type: 'text-end', id: '0' },
      ]),
    ).toEqual(['text Hi'])
  })
})

describe('regroupBlocks', () => {
  /** A run of every kind of event, turn after turn, with a hidden tool and an empty reasoning. */
  function turnEvents(turn: number): BlocksEvent[] {
    return [
      { type: 'data-user-message', data: { id: `u${turn}`, text: `Change ${turn}` } },
      { type: 'data-run', data: { runId: `r${turn}`, status: 'running' } },
      { type: 'reasoning-start', id: `r${turn}` },
      { type: 'reasoning-delta', id: `r${turn}`, delta: 'Plan' },
      { type: 'reasoning-end', id: `r${turn}` },
      { type: 'text-start', id: `a${turn}` },
      { type: 'text-delta', id: `a${turn}`, delta: 'Looking at the files:' },
      { type: 'text-end', id: `a${turn}` },
      { type: 'tool-input-start', toolCallId: `t${turn}`, toolName: 'list_files' },
      { type: 'tool-input-available', toolCallId: `t${turn}`, toolName: 'list_files', input: {} },
      { type: 'tool-output-available', toolCallId: `t${turn}`, output: 'src' },
      { type: 'reasoning-start', id: `e${turn}` },
      { type: 'reasoning-end', id: `e${turn}` },
      { type: 'text-start', id: `b${turn}` },
      { type: 'text-delta', id: `b${turn}`, delta: 'Done' },
      { type: 'text-delta', id: `b${turn}`, delta: ' now.' },
      { type: 'text-end', id: `b${turn}` },
      { type: 'finish' },
      { type: 'data-run', data: { runId: `r${turn}`, status: 'finished' } },
    ]
  }

  it('gives what grouping from the start gives, after every event', () => {
    let state = createBlocksState()
    let grouping: Grouping | undefined
    for (const event of [1, 2, 3].flatMap(turnEvents)) {
      state = reduceBlocks(state, event)
      grouping = regroupBlocks(grouping, state.blocks, state.isRunning)
      expect(grouping.groups).toEqual(groupBlocks(state.blocks, state.isRunning))
    }
  })

  it('keeps the earlier groups themselves when only the last one changes', () => {
    let state = [1, 2].flatMap(turnEvents).reduce(reduceBlocks, createBlocksState())
    state = [
      { type: 'data-user-message', data: { id: 'u9', text: 'More' } },
      { type: 'text-start', id: 'live' },
      { type: 'text-delta', id: 'live', delta: 'Wor' },
    ].reduce(reduceBlocks, state)
    const before = regroupBlocks(undefined, state.blocks, state.isRunning)
    state = reduceBlocks(state, { type: 'text-delta', id: 'live', delta: 'king' })
    const after = regroupBlocks(before, state.blocks, state.isRunning)
    expect(after.groups.slice(0, -1).every((group, index) => group === before.groups[index])).toBe(
      true,
    )
    expect(after.groups.at(-1)).not.toBe(before.groups.at(-1))
    expect(regroupBlocks(after, state.blocks, state.isRunning)).toBe(after)
  })
})

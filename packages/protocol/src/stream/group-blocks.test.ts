import { describe, expect, it } from 'vitest'
import { type BlocksEvent, createBlocksState } from './blocks-state.ts'
import { groupBlocks } from './group-blocks.ts'
import { reduceBlocks } from './reduce-blocks.ts'

const reduceAll = (events: BlocksEvent[]) => events.reduce(reduceBlocks, createBlocksState())

const describeGroups = (events: BlocksEvent[]) => {
  const state = reduceAll(events)
  return groupBlocks(state.blocks, state.isRunning).map((group) =>
    group.kind === 'text'
      ? `text ${group.block.content}`
      : `actions [${group.blocks.map((block) => block.toolName ?? 'reasoning').join(', ')}]${group.isStreaming ? ' streaming' : ''}`,
  )
}

describe('groupBlocks', () => {
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

import { describe, expect, it } from 'vitest'
import { formatTasks, parseTasks, type TaskList } from './tasks.ts'

const list: TaskList = {
  title: 'Build the landing page',
  tasks: [
    { id: '1', status: 'complete', title: 'Set up the project' },
    {
      id: '2',
      status: 'incomplete',
      title: 'Add a hero section',
      notes: 'Use the brand colours.\n\nKeep it short.',
    },
    { id: '3', status: 'canceled', title: 'Add a carousel', notes: 'Not needed.' },
  ],
}

describe('todos format', () => {
  it('formats the exact text', () => {
    expect(formatTasks(list)).toBe(
      [
        'Build the landing page (3):',
        '<task>',
        'ID: 1',
        'Status: complete',
        'Title: Set up the project',
        '</task>',
        '<task>',
        'ID: 2',
        'Status: incomplete',
        'Title: Add a hero section',
        '',
        'Use the brand colours.',
        '',
        'Keep it short.',
        '</task>',
        '<task>',
        'ID: 3',
        'Status: canceled',
        'Title: Add a carousel',
        '',
        'Not needed.',
        '</task>',
      ].join('\n'),
    )
  })

  it('round-trips with and without a heading', () => {
    expect(parseTasks(formatTasks(list))).toEqual(list)
    expect(parseTasks(formatTasks({ tasks: list.tasks }))).toEqual({ tasks: list.tasks })
    expect(parseTasks(formatTasks({ title: 'Empty', tasks: [] }))).toEqual({
      title: 'Empty',
      tasks: [],
    })
  })

  it('skips tasks without id, status or title, and tasks with other statuses', () => {
    const text = [
      'Tasks (4):',
      '<task>\nID: 1\nTitle: No status\n</task>',
      '<task>\nID: 2\nStatus: blocked\nTitle: Unknown status\n</task>',
      '<task>\nStatus: complete\nTitle: No id\n</task>',
      '<task>\nID: 4\nStatus: Complete\nTitle: Kept\n</task>',
      '<task>garbage</task>',
    ].join('\n')
    expect(parseTasks(text)).toEqual({
      title: 'Tasks',
      tasks: [{ id: '4', status: 'complete', title: 'Kept' }],
    })
  })

  it('reads untagged blocks that start with ID lines', () => {
    const text =
      'ID: a\nStatus: incomplete\nTitle: First\n\nsome notes\n\nID: b\nStatus: complete\nTitle: Second\n'
    expect(parseTasks(text)).toEqual({
      tasks: [
        { id: 'a', status: 'incomplete', title: 'First', notes: 'some notes' },
        { id: 'b', status: 'complete', title: 'Second' },
      ],
    })
  })

  it('returns no tasks for unrelated text', () => {
    expect(parseTasks('Error: could not save tasks')).toEqual({ tasks: [] })
  })
})

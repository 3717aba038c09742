import { parseAddRandom } from '@sprout/protocol/tool-formats/add-random.ts'
import { parseRollDice } from '@sprout/protocol/tool-formats/roll-dice.ts'
import { parseTasks } from '@sprout/protocol/tool-formats/tasks.ts'
import { expect, test } from 'vitest'
import { executeTool } from '../testing/execute-tool.ts'
import { createTempFolderDevbox } from '../testing/temp-folder-devbox.ts'
import { createAddRandomTool } from './add-random.ts'
import { createAgentTools } from './create-agent-tools.ts'
import { createGetTimeTool } from './get-time.ts'
import { createRollDiceTool } from './roll-dice.ts'
import { createTodosTool } from './todos.ts'
import type { ToolContext } from './tool-context.ts'

const sequence = (...values: number[]) => {
  let index = 0
  return () => values[index++ % values.length] ?? 0
}
const baseContext = (extra: Partial<ToolContext> = {}): ToolContext => ({
  devbox: { files: {} as ToolContext['devbox']['files'], exec: async () => Promise.reject() },
  ...extra,
})

test('roll_dice defaults to 1d6 and its output parses', async () => {
  const single = await executeTool(createRollDiceTool(baseContext({ random: sequence(0.5) })), {})
  expect(single).toBe('Rolled a d6: 4')
  const two = await executeTool(createRollDiceTool(baseContext({ random: sequence(0, 0.99) })), {
    count: 2,
    sides: 6,
  })
  expect(two).toBe('Rolled 2 d6 dice: [1, 6] (total: 7)')
  expect(parseRollDice(two)).toEqual({ sides: 6, rolls: [1, 6], total: 7 })
})

test('add_random adds 1 to 100 and its output parses', async () => {
  const output = await executeTool(createAddRandomTool(baseContext({ random: sequence(0.41) })), {
    num: 5,
  })
  expect(output).toBe('Randomly added: 42, for a final result of: 47')
  expect(parseAddRandom(output)).toEqual({ added: 42, result: 47 })
})

test('get_time tells the time', async () => {
  const now = new Date('2026-11-22T10:30:00Z')
  const output = await executeTool(createGetTimeTool(baseContext({ now: () => now })), {})
  expect(output).toBe(
    'The current time is Sun, 22 Nov 2026 10:30:00 GMT (2026-11-22T10:30:00.000Z).',
  )
})

test('todos returns the tasks block that the chat parses', async () => {
  const input = {
    title: 'Landing page',
    tasks: [
      { id: '1', status: 'complete' as const, title: 'Hero section', notes: 'With a CTA' },
      { id: '2', status: 'incomplete' as const, title: 'Pricing table' },
    ],
  }
  const output = await executeTool(createTodosTool(baseContext()), input)
  expect(output.startsWith('Landing page (2):')).toBe(true)
  expect(parseTasks(output)).toEqual(input)
})

test('web_search is offered only when a search service is configured', async () => {
  const devbox = await createTempFolderDevbox()
  try {
    expect(Object.keys(createAgentTools({ devbox })).sort()).toEqual([
      'add_random',
      'delete_file',
      'get_time',
      'integration_guide',
      'list_files',
      'roll_dice',
      'search',
      'server_logs',
      'shell_exec',
      'str_replace',
      'todos',
      'view_file',
      'write_file',
    ])
    const withSearch = createAgentTools({ devbox, webSearch: { searxngUrl: 'http://127.0.0.1:1' } })
    expect(Object.keys(withSearch)).toContain('web_search')
  } finally {
    await devbox.remove()
  }
})

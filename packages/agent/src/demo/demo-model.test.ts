import { parseRollDice } from '@sprout/protocol/tool-formats/roll-dice.ts'
import { parseTasks } from '@sprout/protocol/tool-formats/tasks.ts'
import type { ModelMessage } from 'ai'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { runAgent } from '../run-agent.ts'
import { collectChunks } from '../testing/collect-chunks.ts'
import { createTempFolderDevbox, type TempFolderDevbox } from '../testing/temp-folder-devbox.ts'
import { DemoLanguageModel } from './demo-model.ts'
import { DEMO_HELP_TEXT } from './demo-script.ts'

let devbox: TempFolderDevbox
beforeEach(async () => {
  devbox = await createTempFolderDevbox()
  await devbox.files.write('src/main.tsx', "import { App } from './App.tsx'\n")
})
afterEach(() => devbox.remove())

async function runDemo(messages: ModelMessage[], abortSignal?: AbortSignal, chunkDelayMs = 0) {
  const log = collectChunks()
  const result = await runAgent({
    model: new DemoLanguageModel({ chunkDelayMs }),
    modelId: 'demo',
    contextWindow: 200_000,
    system: 'You build apps.',
    messages,
    toolContext: { devbox },
    abortSignal,
    onChunk: log.onChunk,
  })
  const toolCalls = log.ofType('tool-input-available').map((chunk) => ({
    toolName: chunk.toolName,
    input: chunk.input,
  }))
  const outputs = log.ofType('tool-output-available').map((chunk) => chunk.output)
  return { result, log, toolCalls, outputs }
}

test('a new-app prompt plans, writes src/App.tsx, checks and reports', async () => {
  const { result, log, toolCalls, outputs } = await runDemo([
    {
      role: 'user',
      content: 'Build a recipe tracker with ingredients, ratings and a "shopping" list',
    },
  ])
  expect(toolCalls.map((call) => call.toolName)).toEqual([
    'todos',
    'write_file',
    'todos',
    'shell_exec',
    'todos',
  ])
  const app = await devbox.files.read('src/App.tsx')
  expect(app).toContain('const title = "Recipe Tracker"')
  expect(app).toContain('"Ingredients"')
  expect(app).toContain('"Shopping List"')
  expect(app).toContain('export function App()')
  expect(app).toContain('\\"shopping\\"')

  const firstList = parseTasks(String(outputs[0]))
  expect(firstList.title).toBe('Recipe Tracker')
  expect(firstList.tasks.map((task) => task.status)).toEqual(['incomplete', 'incomplete'])
  const lastList = parseTasks(String(outputs[4]))
  expect(lastList.tasks.map((task) => task.status)).toEqual(['complete', 'complete'])
  expect(outputs[3]).toBe('App.tsx\nmain.tsx\n[exit code 0]')

  expect(log.ofType('reasoning-delta').length).toBeGreaterThan(1)
  expect(log.ofType('text-delta').length).toBeGreaterThan(5)
  expect(log.text()).toContain('Done! **Recipe Tracker** is in `src/App.tsx`')
  expect(log.ofType('data-usage').every((chunk) => chunk.data.used > 0)).toBe(true)
  expect(result.finishReason).toBe('stop')
})

test('"roll 2d6" rolls two six-sided dice', async () => {
  const { toolCalls, outputs, log } = await runDemo([{ role: 'user', content: 'roll 2d6' }])
  expect(toolCalls).toEqual([{ toolName: 'roll_dice', input: { count: 2, sides: 6 } }])
  const roll = parseRollDice(String(outputs[0]))
  expect(roll?.rolls).toHaveLength(2)
  expect(roll?.sides).toBe(6)
  expect(log.text()).toContain(`(total: ${roll?.total})`)
})

test('"what time is it" and "add a random number to 5" use their tools', async () => {
  const time = await runDemo([{ role: 'user', content: 'What time is it?' }])
  expect(time.toolCalls).toEqual([{ toolName: 'get_time', input: {} }])
  const random = await runDemo([{ role: 'user', content: 'add a random number to 5' }])
  expect(random.toolCalls).toEqual([{ toolName: 'add_random', input: { num: 5 } }])
  expect(random.outputs[0]).toMatch(/^Randomly added: \d+, for a final result of: \d+$/)
})

test('anything else gets an honest reply on how to use a real model', async () => {
  const { toolCalls, log } = await runDemo([
    { role: 'user', content: 'Build a recipe tracker' },
    { role: 'assistant', content: 'Done!' },
    { role: 'user', content: 'Why is the sky blue?' },
  ])
  expect(toolCalls).toEqual([])
  expect(log.text()).toBe(DEMO_HELP_TEXT)
  expect(log.text()).toContain('ANTHROPIC_API_KEY')
})

test('the demo stops when interrupted', async () => {
  const controller = new AbortController()
  setTimeout(() => controller.abort(), 50)
  const started = Date.now()
  const { result, log } = await runDemo(
    [{ role: 'user', content: 'Why is the sky blue?' }],
    controller.signal,
    20,
  )
  expect(Date.now() - started).toBeLessThan(500)
  expect(result.finishReason).toBe('aborted')
  expect(log.chunks.at(-1)).toMatchObject({ type: 'data-error', data: { errorType: 'interrupt' } })
})

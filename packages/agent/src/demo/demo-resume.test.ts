// Issue 20: after an interrupt, the retry's 'Please continue.' (apps/server/src/runs/open-run.ts)
// or a queued message got the Demo model's help text and left the app half-built. Runs are held
// with a test gate (docs/decisions/013-test-gates.md), so each interrupt lands after a known step.
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { parseTasks } from '@sprout/protocol/tool-formats/tasks.ts'
import type { ModelMessage } from 'ai'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { runAgent } from '../run-agent.ts'
import { collectChunks } from '../testing/collect-chunks.ts'
import { createTempFolderDevbox, type TempFolderDevbox } from '../testing/temp-folder-devbox.ts'
import { DemoLanguageModel } from './demo-model.ts'
import { DEMO_HELP_TEXT } from './demo-script.ts'

let devbox: TempFolderDevbox
let gates: string
beforeEach(async () => {
  devbox = await createTempFolderDevbox()
  await devbox.files.write('src/main.tsx', "import { App } from './App.tsx'\n")
  gates = await mkdtemp(path.join(os.tmpdir(), 'sprout-demo-gates-'))
})
afterEach(async () => {
  await devbox.remove()
  await rm(gates, { recursive: true, force: true })
})

/**
 * One run of the Demo model over `messages`. `interruptAfterTools`: the run is interrupted once
 * that many tool results have streamed (the message's gate holds the next step meanwhile).
 */
async function demoRun(
  messages: ModelMessage[],
  options: { interruptAfterTools?: number; staged?: string[] } = {},
) {
  const log = collectChunks()
  const controller = new AbortController()
  let staged = options.staged
  const result = await runAgent({
    model: new DemoLanguageModel({ chunkDelayMs: 0, testGatesDir: gates }),
    modelId: 'demo',
    contextWindow: 200_000,
    system: 'You build apps.',
    messages,
    toolContext: { devbox },
    abortSignal: controller.signal,
    onChunk: (chunk) => {
      log.onChunk(chunk)
      const results = log.ofType('tool-output-available').length
      if (chunk.type === 'tool-output-available' && results === options.interruptAfterTools) {
        controller.abort()
      }
    },
    takeStagedMessages: async () => {
      const taken = staged ?? []
      staged = undefined
      return taken
    },
  })
  const toolNames = log.ofType('tool-input-available').map((chunk) => chunk.toolName)
  const outputs = log.ofType('tool-output-available').map((chunk) => String(chunk.output))
  return { result, log, toolNames, outputs }
}

const request = 'Build a recipe tracker with ingredients and ratings'

function expectFinishedRecipeTracker(run: Awaited<ReturnType<typeof demoRun>>) {
  expect(run.result.error).toBeUndefined()
  expect(run.log.text()).not.toContain(DEMO_HELP_TEXT.slice(0, 60))
  expect(run.log.text()).toContain('Done! **Recipe Tracker** is in `src/App.tsx`')
  const lastList = parseTasks(run.outputs.at(-1) ?? '')
  expect(lastList.title).toBe('Recipe Tracker')
  expect(lastList.tasks.map((task) => task.status)).toEqual(['complete', 'complete'])
}

for (const followUp of ['Please continue.', 'Also show the total at the bottom']) {
  test(`after an interrupt, "${followUp}" finishes the build from where it stopped`, async () => {
    const first = await demoRun([{ role: 'user', content: `${request} [test-gate:held]` }], {
      interruptAfterTools: 1,
    })
    expect(first.result.error?.errorType).toBe('interrupt')
    expect(first.toolNames).toEqual(['todos'])

    const next = await demoRun([...first.result.messages, { role: 'user', content: followUp }])
    // The plan is not made again: the steps after it, then the closing text.
    expect(next.toolNames).toEqual(['write_file', 'todos', 'shell_exec', 'todos'])
    expectFinishedRecipeTracker(next)
    expect(await devbox.files.read('src/App.tsx')).toContain('const title = "Recipe Tracker"')
  })
}

test('interrupted twice, the third run still finishes the one build', async () => {
  const first = await demoRun([{ role: 'user', content: `${request} [test-gate:first]` }], {
    interruptAfterTools: 1,
  })
  const second = await demoRun(
    [...first.result.messages, { role: 'user', content: 'Please continue. [test-gate:second]' }],
    { interruptAfterTools: 1 },
  )
  expect(second.toolNames).toEqual(['write_file'])
  expect(second.result.error?.errorType).toBe('interrupt')
  const third = await demoRun([
    ...second.result.messages,
    { role: 'user', content: 'Please continue.' },
  ])
  expect(third.toolNames).toEqual(['todos', 'shell_exec', 'todos'])
  expectFinishedRecipeTracker(third)
})

for (const queued of ['Also show the total at the bottom', 'Also make the header green']) {
  test(`"${queued}" queued during the build does not stop it: the build goes on to its end`, async () => {
    const run = await demoRun([{ role: 'user', content: request }], { staged: [queued] })
    expect(run.toolNames).toEqual(['todos', 'write_file', 'todos', 'shell_exec', 'todos'])
    expectFinishedRecipeTracker(run)
  })
}

test('after an interrupt, a request for another app builds that one', async () => {
  const first = await demoRun([{ role: 'user', content: `${request} [test-gate:other]` }], {
    interruptAfterTools: 1,
  })
  const next = await demoRun([
    ...first.result.messages,
    { role: 'user', content: 'Build a workout log' },
  ])
  expect(next.toolNames).toEqual(['todos', 'write_file', 'todos', 'shell_exec', 'todos'])
  expect(next.log.text()).toContain('Done! **Workout Log**')
})

test('after a finished build, a message it has no script for still gets the help', async () => {
  const built = await demoRun([{ role: 'user', content: request }])
  expectFinishedRecipeTracker(built)
  const after = await demoRun([
    ...built.result.messages,
    { role: 'user', content: 'Also show the total at the bottom' },
  ])
  expect(after.toolNames).toEqual([])
  expect(after.log.text()).toBe(DEMO_HELP_TEXT)
})

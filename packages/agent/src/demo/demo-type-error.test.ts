import type { CheckReport } from '@sprout/protocol/api/checks.ts'
import { repairMessage } from '@sprout/protocol/text/check-problems.ts'
import type { ModelMessage } from 'ai'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { runAgent } from '../run-agent.ts'
import { collectChunks } from '../testing/collect-chunks.ts'
import { demoRun } from '../testing/demo-run.ts'
import { createTempFolderDevbox, type TempFolderDevbox } from '../testing/temp-folder-devbox.ts'
import { typeErrorFix, typeErrorLine, typeErrorPath } from './demo-type-error.ts'

let devbox: TempFolderDevbox
beforeEach(async () => {
  devbox = await createTempFolderDevbox()
})
afterEach(() => devbox.remove())

const run = async (messages: ModelMessage[], system?: string) => {
  const log = collectChunks()
  const result = await runAgent({
    ...demoRun(),
    ...(system ? { system } : {}),
    messages,
    toolContext: { devbox },
    onChunk: log.onChunk,
  })
  expect(result.error).toBeUndefined()
  return log
}

const toolNames = (log: ReturnType<typeof collectChunks>) =>
  log.ofType('tool-input-available').map((chunk) => chunk.toolName)

const failedCheck: CheckReport = {
  id: 'check-1',
  state: 'failed',
  trigger: 'run',
  startedAt: '2026-11-26T10:00:00.000Z',
  finishedAt: '2026-11-26T10:00:03.000Z',
  parts: [
    {
      name: 'types',
      status: 'failed',
      problemCount: 1,
      durationMs: 900,
      note: null,
      problems: [
        {
          file: typeErrorPath,
          line: 5,
          column: 9,
          message: "Type 'number' is not assignable to type 'string'.",
          text: "Type 'number' is not assignable to type 'string'.",
        },
      ],
    },
  ],
}

test('the Demo model writes a type error on purpose, then its repair turn fixes that line', async () => {
  const build = await run([{ role: 'user', content: 'Build a counter with a type error' }])
  expect(toolNames(build)).toEqual(['write_file'])
  expect(await devbox.files.read(typeErrorPath)).toContain(typeErrorLine)

  const repair = await run([
    { role: 'user', content: 'Build a counter with a type error' },
    { role: 'assistant', content: build.text() },
    { role: 'user', content: repairMessage(failedCheck) },
  ])
  expect(toolNames(repair)).toEqual(['str_replace'])
  const fixed = await devbox.files.read(typeErrorPath)
  expect(fixed).toContain(typeErrorFix)
  expect(fixed).not.toContain(typeErrorLine)
})

test('a repair it has no script for is answered, not attempted', async () => {
  const other = { ...failedCheck, parts: [{ ...failedCheck.parts[0], problems: [] }] }
  const repair = await run([{ role: 'user', content: repairMessage(other as CheckReport) }])
  expect(toolNames(repair)).toEqual([])
  expect(repair.text()).toContain('can only fix the type error')
})

test('the first step says what changed since the last run (docs/product/versions.md)', async () => {
  const log = await run(
    [{ role: 'user', content: 'roll 2d6' }],
    'You build apps.\n\n## Since your last run\n- The user changed src/App.tsx by hand.',
  )
  expect(log.text()).toContain('Since my last run: The user changed src/App.tsx by hand.')
})

import { formatErrorFixRequest } from '@sprout/protocol/text/error-fix-request.ts'
import type { ModelMessage } from 'ai'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { runAgent } from '../run-agent.ts'
import { collectChunks } from '../testing/collect-chunks.ts'
import { demoRun } from '../testing/demo-run.ts'
import { errorGroup, fakeErrorReports } from '../testing/fake-error-reports.ts'
import { createTempFolderDevbox, type TempFolderDevbox } from '../testing/temp-folder-devbox.ts'
import type { ErrorReportsAccess } from '../tools/tool-context.ts'
import { buggyCounterPath, counterBug, counterFix } from './demo-error-loop.ts'

let devbox: TempFolderDevbox
beforeEach(async () => {
  devbox = await createTempFolderDevbox()
})
afterEach(() => devbox.remove())

const run = async (messages: ModelMessage[], errorReports?: ErrorReportsAccess) => {
  const log = collectChunks()
  const result = await runAgent({
    ...demoRun(),
    messages,
    toolContext: { devbox, ...(errorReports ? { errorReports } : {}) },
    onChunk: log.onChunk,
  })
  expect(result.error).toBeUndefined()
  return log
}

const toolNames = (log: ReturnType<typeof collectChunks>) =>
  log.ofType('tool-input-available').map((chunk) => chunk.toolName)

test('the Demo model writes a bug, then reads the error, fixes it and resolves its group', async () => {
  const errors = fakeErrorReports([errorGroup({ id: 'group-7' })])
  const build = await run([{ role: 'user', content: 'Build a counter with a bug' }], errors.access)
  expect(toolNames(build)).toEqual(['write_file'])
  expect(await devbox.files.read(buggyCounterPath)).toContain(counterBug)
  expect(build.text()).toContain("'Ask agent to fix this error'")

  const request = formatErrorFixRequest(errors.groups)
  const fix = await run(
    [
      { role: 'user', content: 'Build a counter with a bug' },
      { role: 'assistant', content: build.text() },
      { role: 'user', content: request },
    ],
    errors.access,
  )
  expect(toolNames(fix)).toEqual(['error_reports_list', 'str_replace', 'error_reports_update'])
  const app = await devbox.files.read(buggyCounterPath)
  expect(app).toContain(counterFix)
  expect(app).not.toContain(counterBug)
  expect(errors.groups[0]?.status).toBe('resolved')
  expect(errors.comments).toEqual([
    { groupId: 'group-7', comment: 'Show history counts a missing history as empty' },
  ])
  expect(fix.text()).toContain('the error is resolved')
})

test('with no matching error, or no error monitoring, the Demo model says so', async () => {
  const none = await run([{ role: 'user', content: 'Fix the error' }], fakeErrorReports([]).access)
  expect(toolNames(none)).toEqual(['error_reports_list'])
  expect(none.text()).toContain('There are no active errors right now')

  const other = fakeErrorReports([errorGroup({ representative_message: 'boom' })])
  const unknown = await run([{ role: 'user', content: 'Fix the error' }], other.access)
  expect(unknown.text()).toContain("I can only fix the counter's **Show history** bug")
  expect(other.groups[0]?.status).toBe('active')

  const unavailable = await run([{ role: 'user', content: 'Fix the error' }])
  expect(toolNames(unavailable)).toEqual([])
  expect(unavailable.text()).toContain('Error monitoring is not available')
})

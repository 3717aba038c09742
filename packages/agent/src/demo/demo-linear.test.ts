import { afterEach, beforeEach, expect, test } from 'vitest'
import { runAgent } from '../run-agent.ts'
import { collectChunks } from '../testing/collect-chunks.ts'
import { demoRun } from '../testing/demo-run.ts'
import { createTempFolderDevbox, type TempFolderDevbox } from '../testing/temp-folder-devbox.ts'
import { linearClientPath, linearGuideQuestion, linearServerPath } from './demo-linear.ts'

let devbox: TempFolderDevbox
beforeEach(async () => {
  devbox = await createTempFolderDevbox()
})
afterEach(() => devbox.remove())

test('"a page listing my Linear issues" asks the guide, then writes a route using getAccessToken', async () => {
  const log = collectChunks()
  const result = await runAgent({
    ...demoRun(),
    messages: [{ role: 'user', content: 'Build a page listing my Linear issues' }],
    toolContext: { devbox },
    onChunk: log.onChunk,
  })
  expect(result.error).toBeUndefined()
  const calls = log.ofType('tool-input-available')
  expect(calls.map((chunk) => chunk.toolName)).toEqual([
    'integration_guide',
    'write_file',
    'write_file',
  ])
  expect(calls[0]?.input).toEqual({ integration: 'linear', question: linearGuideQuestion })
  const guide = String(log.ofType('tool-output-available')[0]?.output)
  expect(guide).toContain('# Linear integration guide')
  expect(guide).toContain('## Pagination')

  const server = await devbox.files.read(linearServerPath)
  expect(server).toContain("import { getAccessToken } from './integrations.ts'")
  expect(server).toContain("await getAccessToken('linear')")
  expect(server).toContain('https://api.linear.app/graphql')
  expect(server).toContain("app.get('/health'")
  const client = await devbox.files.read(linearClientPath)
  expect(client).toContain('/api/issues')
  expect(client).not.toContain('getAccessToken')
  const text = log
    .ofType('text-delta')
    .map((chunk) => chunk.delta)
    .join('')
  expect(text).toContain("`getAccessToken('linear')` (it never reaches the browser)")
})

import { afterEach, beforeEach, expect, test } from 'vitest'
import { executeTool } from '../testing/execute-tool.ts'
import { createTempFolderDevbox, type TempFolderDevbox } from '../testing/temp-folder-devbox.ts'
import { createShellExecTool } from './shell-exec.ts'
import { TOOL_OUTPUT_LIMIT } from './tool-output.ts'

let devbox: TempFolderDevbox
beforeEach(async () => {
  devbox = await createTempFolderDevbox()
})
afterEach(() => devbox.remove())

test('runs a command, streams its output and reports the exit code', async () => {
  const streamed: string[] = []
  const shell = createShellExecTool({
    devbox,
    onToolOutput: (toolCallId, delta) => streamed.push(`${toolCallId}:${delta}`),
  })
  const output = await executeTool(
    shell,
    { command: 'echo first; sleep 0.1; echo second; exit 3' },
    { toolCallId: 'call-7' },
  )
  expect(output).toBe('first\nsecond\n[exit code 3]')
  expect(streamed.join('')).toContain('call-7:first')
  expect(streamed.length).toBeGreaterThanOrEqual(2)
})

test('kills a command at its timeout and says how to raise it', async () => {
  const started = Date.now()
  const output = await executeTool(createShellExecTool({ devbox }), {
    command: 'echo started; sleep 30',
    timeout: 1,
  })
  expect(Date.now() - started).toBeLessThan(5_000)
  expect(output).toMatch(/^started\n\[timed out after 1 s and was killed; pass a larger timeout/)
})

test('keeps the end of long output with a note that it was cut', async () => {
  const output = await executeTool(createShellExecTool({ devbox }), {
    command: `head -c ${TOOL_OUTPUT_LIMIT + 5_000} /dev/zero | tr '\\0' 'a'; echo; echo THE-END`,
  })
  expect(output).toMatch(/^\[output cut: the first \d+ characters were omitted\]/)
  expect(output).toMatch(/THE-END\n\[exit code 0\]$/)
})

test('redacts secrets from streamed and final output', async () => {
  const streamed: string[] = []
  const shell = createShellExecTool({
    devbox,
    redact: (text) => text.replaceAll('hunter2', '[redacted]'),
    onToolOutput: (_id, delta) => streamed.push(delta),
  })
  const output = await executeTool(shell, { command: 'echo password=hunter2' })
  expect(output).toBe('password=[redacted]\n[exit code 0]')
  expect(streamed.join('')).not.toContain('hunter2')
})

test('an abort stops the command', async () => {
  const controller = new AbortController()
  setTimeout(() => controller.abort(), 100)
  const output = await executeTool(
    createShellExecTool({ devbox }),
    { command: 'sleep 30', timeout: 60 },
    { abortSignal: controller.signal },
  )
  expect(output).toBe('[interrupted]')
})

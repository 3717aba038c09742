import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { executeTool } from '../testing/execute-tool.ts'
import { createTempFolderDevbox, type TempFolderDevbox } from '../testing/temp-folder-devbox.ts'
import { createServerLogsTool, SERVER_LOGS_EMPTY, serverLogsInputSchema } from './server-logs.ts'

describe('server_logs', () => {
  let devbox: TempFolderDevbox
  beforeEach(async () => {
    devbox = await createTempFolderDevbox()
  })
  afterEach(() => devbox.remove())

  const read = (input: { lines?: number } = {}, redact?: (text: string) => string) =>
    executeTool(createServerLogsTool({ devbox, ...(redact ? { redact } : {}) }), input)

  it("says '(no output)' before the dev server printed anything", async () => {
    expect(await read()).toBe(SERVER_LOGS_EMPTY)
    devbox.printServerOutput('\n  \n')
    expect(await read()).toBe(SERVER_LOGS_EMPTY)
  })

  it('returns the last 100 lines by default, fewer when asked, at most 500', async () => {
    const lines = Array.from({ length: 700 }, (_, index) => `line ${index + 1}`)
    devbox.printServerOutput(`${lines.join('\n')}\n`)
    const tail = (await read()).split('\n')
    expect(tail).toHaveLength(100)
    expect(tail[0]).toBe('line 601')
    expect(tail.at(-1)).toBe('line 700')
    expect(await read({ lines: 2 })).toBe('line 699\nline 700')
    expect((await read({ lines: 10_000 })).split('\n')[0]).toBe('line 201')
  })

  it("shows a failing route's error as the dev server printed it, without terminal colours", async () => {
    devbox.printServerOutput(
      '\u001b[32m  VITE v7  ready in 412 ms\u001b[39m\r\n' +
        'Error: the guest book table is missing\n    at /home/sprout/app/server/app.ts:12:11\n',
    )
    expect(await read()).toBe(
      '  VITE v7  ready in 412 ms\nError: the guest book table is missing\n' +
        '    at /home/sprout/app/server/app.ts:12:11',
    )
  })

  it('passes its text through the redaction like every tool', async () => {
    devbox.printServerOutput('token=s3cret\n')
    expect(await read({}, (text) => text.replaceAll('s3cret', '[redacted]'))).toBe(
      'token=[redacted]',
    )
  })

  it('refuses a line count that is not a positive whole number', () => {
    expect(serverLogsInputSchema.safeParse({ lines: 0 }).success).toBe(false)
    expect(serverLogsInputSchema.safeParse({ lines: 2.5 }).success).toBe(false)
    expect(serverLogsInputSchema.safeParse({}).success).toBe(true)
  })
})

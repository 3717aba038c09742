import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ExecOptions, ExecResult } from '../../../devbox-driver.ts'
import { WorkspacePathError } from '../../../devbox-driver.ts'
import { silentLogger } from '../../../logger.ts'
import { createTestBoxExec } from '../../../testing/devbox-support.ts'
import { bubblewrapWorks, createSandbox, findBubblewrap } from '../sandbox/sandbox.ts'

const bubblewrapPath = findBubblewrap()
const hasBubblewrap = bubblewrapPath !== undefined && bubblewrapWorks(bubblewrapPath)

let baseDirectory: string
let workspace: string

beforeAll(async () => {
  baseDirectory = await mkdtemp(path.join(os.tmpdir(), 'sprout-exec-'))
  workspace = path.join(baseDirectory, 'workspaces', 'box')
  await mkdir(path.join(workspace, 'src'), { recursive: true })
})

afterAll(async () => {
  await rm(baseDirectory, { recursive: true, force: true })
})

function runningCommands(): string {
  return execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
}

/** A sleep duration no other test uses, so `ps` finds exactly this test's processes. */
function uniqueSleepSeconds(): string {
  return `${1000 + Math.floor(Math.random() * 8000)}.${Math.floor(Math.random() * 1000)}`
}

describe.each([
  { mode: 'sandboxed', sandbox: 'auto' as const, skip: !hasBubblewrap },
  { mode: 'plain', sandbox: 'off' as const, skip: false },
])('exec ($mode)', ({ sandbox: mode, skip }) => {
  let exec: (command: string, options: ExecOptions) => Promise<ExecResult>
  let release: () => Promise<void>
  let inside: string

  beforeAll(() => {
    const sandbox = createSandbox({ mode, stateDirectory: baseDirectory, logger: silentLogger })
    const box = createTestBoxExec(sandbox, workspace, `exec-${mode}`)
    exec = box.exec
    release = box.release
    // Sandboxed, the workspace appears at one fixed path; plain, at its own.
    inside = box.boxSandbox.workspaceInside
  })
  afterAll(() => release())

  it.skipIf(skip)('streams output while the command runs', async () => {
    const chunks: { text: string; at: number }[] = []
    const result = await exec('echo one; sleep 0.4; echo two >&2; exit 3', {
      timeoutSeconds: 5,
      onOutput: (text) => chunks.push({ text, at: Date.now() }),
    })
    expect(result).toMatchObject({
      exitCode: 3,
      output: 'one\ntwo\n',
      timedOut: false,
      aborted: false,
    })
    expect(chunks.map((chunk) => chunk.text).join('')).toBe('one\ntwo\n')
    const first = chunks[0]
    const last = chunks.at(-1)
    expect(first && last && last.at - first.at).toBeGreaterThanOrEqual(300)
  })

  it.skipIf(skip)('runs with a minimal environment and HOME in the workspace', async () => {
    process.env.SPROUT_TEST_PRODUCT_SECRET = 'do-not-leak'
    const result = await exec(
      'echo "[$SPROUT_TEST_PRODUCT_SECRET] $HOME $GREETING"; node -p process.version',
      {
        timeoutSeconds: 5,
        env: { GREETING: 'hello' },
      },
    )
    delete process.env.SPROUT_TEST_PRODUCT_SECRET
    expect(result.output).toBe(`[] ${inside} hello\n${process.version}\n`)
  })

  it.skipIf(skip)('runs in a folder of the workspace and refuses one outside', async () => {
    expect((await exec('pwd', { timeoutSeconds: 5, cwd: 'src' })).output).toBe(`${inside}/src\n`)
    await expect(exec('pwd', { timeoutSeconds: 5, cwd: '..' })).rejects.toBeInstanceOf(
      WorkspacePathError,
    )
  })

  it.skipIf(skip)('kills the whole process tree on timeout', async () => {
    const seconds = uniqueSleepSeconds()
    const startedAt = Date.now()
    const result = await exec(`sleep ${seconds} & sleep ${seconds}; wait`, { timeoutSeconds: 1 })
    expect(result.timedOut).toBe(true)
    expect(Date.now() - startedAt).toBeLessThan(3000)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(runningCommands()).not.toContain(`sleep ${seconds}`)
  })

  it.skipIf(skip)('does not leave background processes behind when the command ends', async () => {
    const seconds = uniqueSleepSeconds()
    const startedAt = Date.now()
    const result = await exec(`sleep ${seconds} & echo started`, { timeoutSeconds: 10 })
    expect(result).toMatchObject({ exitCode: 0, output: 'started\n', timedOut: false })
    expect(Date.now() - startedAt).toBeLessThan(2000)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(runningCommands()).not.toContain(`sleep ${seconds}`)
  })

  it.skipIf(skip)('stops within 500 ms when aborted', async () => {
    const seconds = uniqueSleepSeconds()
    const controller = new AbortController()
    const running = exec(`sleep ${seconds}`, { timeoutSeconds: 30, signal: controller.signal })
    await new Promise((resolve) => setTimeout(resolve, 300))
    const abortedAt = Date.now()
    controller.abort()
    const result = await running
    expect(Date.now() - abortedAt).toBeLessThan(500)
    expect(result.aborted).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(runningCommands()).not.toContain(`sleep ${seconds}`)
  })

  it.skipIf(skip)('caps the output and says it was truncated', async () => {
    const streamed: string[] = []
    const result = await exec("head -c 300000 /dev/zero | tr '\\0' a; echo done", {
      timeoutSeconds: 10,
      outputLimitBytes: 1000,
      onOutput: (text) => streamed.push(text),
    })
    expect(result.exitCode).toBe(0)
    expect(result.truncated).toBe(true)
    expect(result.output).toBe('a'.repeat(1000))
    expect(streamed.join('')).toBe(result.output)
  })
})

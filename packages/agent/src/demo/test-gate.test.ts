import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, expect, test } from 'vitest'
import type { AgentChunk } from '../agent-chunk.ts'
import { runAgent } from '../run-agent.ts'
import { createTempFolderDevbox, type TempFolderDevbox } from '../testing/temp-folder-devbox.ts'
import { DemoLanguageModel } from './demo-model.ts'

let devbox: TempFolderDevbox
let gates: string
beforeEach(async () => {
  devbox = await createTempFolderDevbox()
  gates = await mkdtemp(path.join(tmpdir(), 'sprout-gates-'))
})
afterEach(async () => {
  await devbox.remove()
  await rm(gates, { recursive: true, force: true })
})

const prompt = 'Build a recipe tracker [test-gate:recipes]'

function run(
  onChunk: (chunk: AgentChunk) => void,
  abortSignal?: AbortSignal,
  testGatesDir = gates,
) {
  return runAgent({
    model: new DemoLanguageModel({ chunkDelayMs: 0, testGatesDir }),
    modelId: 'demo',
    contextWindow: 200_000,
    system: 'You build apps.',
    messages: [{ role: 'user', content: prompt }],
    toolContext: { devbox },
    abortSignal,
    onChunk,
  })
}

const toolNames = (chunks: AgentChunk[]) =>
  chunks.flatMap((chunk) => (chunk.type === 'tool-input-available' ? [chunk.toolName] : []))

test('a named gate holds the run after its first step until the test releases it', async () => {
  const chunks: AgentChunk[] = []
  let paused!: () => void
  const atGate = new Promise<void>((resolve) => {
    paused = resolve
  })
  const finished = run((chunk) => {
    chunks.push(chunk)
    if (chunk.type === 'tool-output-available') paused()
  })
  await atGate
  // Held: the run has planned (todos) and goes no further while the gate is closed.
  expect(toolNames(chunks)).toEqual(['todos'])
  await writeFile(path.join(gates, 'recipes'), '')
  const result = await finished
  expect(result.finishReason).toBe('stop')
  expect(toolNames(chunks)).toEqual(['todos', 'write_file', 'todos', 'shell_exec', 'todos'])
  // The gate is not part of what the Demo model reads.
  expect(await devbox.files.read('src/App.tsx')).toContain('const title = "Recipe Tracker"')
})

test('an interrupt ends a run held at its gate', async () => {
  const controller = new AbortController()
  const result = await run((chunk) => {
    if (chunk.type === 'tool-output-available') controller.abort()
  }, controller.signal)
  expect(result.finishReason).toBe('aborted')
  expect(result.error?.errorType).toBe('interrupt')
})

test('without a gates folder a named gate is ignored', async () => {
  const chunks: AgentChunk[] = []
  const result = await run((chunk) => chunks.push(chunk), undefined, '')
  expect(result.finishReason).toBe('stop')
  expect(toolNames(chunks)).toHaveLength(5)
})

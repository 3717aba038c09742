import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { createAnthropic } from '@ai-sdk/anthropic'
import type { ModelMessage } from 'ai'
import { describe, expect, test } from 'vitest'
import type { AgentChunk } from './agent-chunk.ts'
import { startFakeAnthropic } from './testing/fake-anthropic.ts'
import type { FakeTurn } from './testing/fake-provider-script.ts'
import { useAgentTestContext } from './testing/use-agent-context.ts'

// docs/architecture/agent-loop.md "Parallel tool calls".

const context = useAgentTestContext()

/** A command that finishes once the test creates `name` in the workspace. */
const waitFor = (name: string) => `until [ -e ${name} ]; do sleep 0.02; done; echo released`

const shell = (command: string) =>
  ({ type: 'tool-call', name: 'shell_exec', input: { command } }) as const

async function run(
  script: FakeTurn[],
  onChunk: (chunk: AgentChunk, seen: AgentChunk[]) => void,
  abortSignal?: AbortSignal,
) {
  const server = await context.startServer(startFakeAnthropic, script)
  const seen: AgentChunk[] = []
  const result = await context.runAgent({
    model: createAnthropic({ apiKey: 'test-key', baseURL: server.baseUrl })('claude-sonnet-4-5'),
    modelId: 'claude-sonnet-4-5',
    messages: [{ role: 'user', content: 'Go' }],
    abortSignal,
    onChunk: (chunk) => {
      seen.push(chunk)
      onChunk(chunk, seen)
    },
  })
  return { result, seen }
}

const release = (name: string) => writeFile(path.join(context.devbox.workspacePath, name), '')

const outputs = (seen: AgentChunk[]) =>
  seen.flatMap((chunk) =>
    chunk.type === 'tool-output-available' && !chunk.preliminary ? [chunk.toolCallId] : [],
  )

const toolCallIds = (seen: AgentChunk[]) =>
  seen.flatMap((chunk) => (chunk.type === 'tool-input-available' ? [chunk.toolCallId] : []))

const toolResults = (messages: ModelMessage[]) =>
  messages.flatMap((message) =>
    message.role === 'tool'
      ? message.content.flatMap((part) => (part.type === 'tool-result' ? [part.toolCallId] : []))
      : [],
  )

describe('tool calls of one step', () => {
  test('a quick command answers while an earlier slow one still runs', async () => {
    const { seen, result } = await run(
      [
        { blocks: [shell(waitFor('go')), shell('true')] },
        { blocks: [{ type: 'text', text: 'Done.' }] },
      ],
      (chunk, all) => {
        // Only once `true` has answered may the slow command end.
        const [slow, quick] = toolCallIds(all)
        if (chunk.type === 'tool-output-available' && chunk.toolCallId === quick && slow) {
          void release('go')
        }
      },
    )
    const [slow, quick] = toolCallIds(seen)
    expect(outputs(seen)).toEqual([quick, slow])
    // The model gets the results in the order it issued the calls.
    expect(toolResults(result.responseMessages)).toEqual([slow, quick])
  })

  test('file changes keep the order the model gave them, and a later command sees them', async () => {
    const write = (content: string) =>
      ({ type: 'tool-call', name: 'write_file', input: { path: 'a.txt', content } }) as const
    const { seen } = await run(
      [
        { blocks: [write('first\n'), write('second\n'), shell('cat a.txt')] },
        { blocks: [{ type: 'text', text: 'Done.' }] },
      ],
      () => {},
    )
    expect(await context.devbox.files.read('a.txt')).toBe('second\n')
    const cat = seen.find(
      (chunk) =>
        chunk.type === 'tool-output-available' &&
        typeof chunk.output === 'string' &&
        chunk.output.includes('second'),
    )
    expect(cat).toBeDefined()
  })

  test('an interrupt ends every call still running', async () => {
    const controller = new AbortController()
    const { result, seen } = await run(
      [{ blocks: [shell(waitFor('never-1')), shell(waitFor('never-2'))] }],
      (chunk, all) => {
        if (chunk.type === 'tool-input-available' && toolCallIds(all).length === 2) {
          controller.abort()
        }
      },
      controller.signal,
    )
    expect(result.finishReason).toBe('aborted')
    expect(outputs(seen)).toEqual([])
  })
})

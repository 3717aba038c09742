// Long file: the agent loop's behaviour against the fake Anthropic server, one scenario per test.
import { existsSync } from 'node:fs'
import path from 'node:path'
import { createAnthropic } from '@ai-sdk/anthropic'
import { USER_INTERRUPTED_MARKER } from '@sprout/protocol/text/strip-markers.ts'
import type { ModelMessage } from 'ai'
import { describe, expect, test } from 'vitest'
import type { RunAgentOptions } from './run-agent.ts'
import { collectChunks } from './testing/collect-chunks.ts'
import { startFakeAnthropic } from './testing/fake-anthropic.ts'
import type { FakeTurn } from './testing/fake-provider-script.ts'
import { useAgentTestContext } from './testing/use-agent-context.ts'
import { TOOL_OUTPUT_LIMIT } from './tools/tool-output.ts'

type AnthropicRequest = {
  system?: { text: string; cache_control?: unknown }[]
  messages: { role: string; content: { type: string; text?: string; cache_control?: unknown }[] }[]
  tools?: { name: string }[]
}

const context = useAgentTestContext()

async function runAnthropic(script: FakeTurn[], overrides: Partial<RunAgentOptions> = {}) {
  const server = await context.startServer(startFakeAnthropic, script)
  const log = collectChunks()
  const model = createAnthropic({ apiKey: 'test-key', baseURL: server.baseUrl })(
    'claude-sonnet-4-5',
  )
  const result = await context.runAgent({
    model,
    modelId: 'claude-sonnet-4-5',
    messages: [{ role: 'user', content: 'Make a page' }],
    onChunk: log.onChunk,
    ...overrides,
  })
  const requests = server.requests.map((request) => request.body as AnthropicRequest)
  return { result, log, requests }
}

describe('the agent loop with Anthropic', () => {
  test('uses tools over several steps and then answers', async () => {
    const { result, log, requests } = await runAnthropic([
      {
        blocks: [
          { type: 'thinking', text: 'A page needs an App component.' },
          { type: 'text', text: 'Writing the page.' },
          {
            type: 'tool-call',
            name: 'write_file',
            input: { path: 'src/App.tsx', content: 'export function App() {}\n' },
          },
        ],
      },
      {
        blocks: [{ type: 'tool-call', name: 'shell_exec', input: { command: 'cat src/App.tsx' } }],
      },
      { blocks: [{ type: 'text', text: 'Your page is ready.' }] },
    ])

    expect(await context.devbox.files.read('src/App.tsx')).toBe('export function App() {}\n')
    expect(log.types().filter((type) => !type.endsWith('-delta') && type !== 'custom')).toEqual([
      'start',
      'start-step',
      'reasoning-start',
      'reasoning-end',
      'text-start',
      'text-end',
      'tool-input-start',
      'tool-input-available',
      'tool-output-available',
      'finish-step',
      'data-usage',
      'start-step',
      'tool-input-start',
      'tool-input-available',
      'tool-output-available',
      'finish-step',
      'data-usage',
      'start-step',
      'text-start',
      'text-end',
      'finish-step',
      'data-usage',
      'finish',
    ])
    const shellCallAt = log.chunks.findIndex(
      (chunk) => chunk.type === 'tool-input-available' && chunk.toolName === 'shell_exec',
    )
    expect(log.types().indexOf('data-tool-output-delta')).toBeGreaterThan(shellCallAt)
    expect(
      log
        .ofType('data-tool-output-delta')
        .map((chunk) => chunk.data.delta)
        .join(''),
    ).toBe('export function App() {}\n')
    expect(log.ofType('tool-output-available').map((chunk) => chunk.output)).toEqual([
      'Wrote src/App.tsx (2 lines).',
      'export function App() {}\n[exit code 0]',
    ])
    expect(log.text()).toBe('Writing the page.Your page is ready.')

    expect(requests).toHaveLength(3)
    expect(JSON.stringify(requests[1]?.messages)).toContain('Wrote src/App.tsx (2 lines).')
    expect(JSON.stringify(requests[2]?.messages)).toContain('[exit code 0]')
    expect(requests[0]?.tools?.map((tool) => tool.name)).toContain('shell_exec')

    expect(result.finishReason).toBe('stop')
    expect(result.responseMessages.map((message) => message.role)).toEqual([
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ])
    expect(result.messages).toHaveLength(6)
  })

  test('marks the system prompt and only the last message for prompt caching', async () => {
    const { requests } = await runAnthropic([
      { blocks: [{ type: 'tool-call', name: 'get_time', input: {} }] },
      { blocks: [{ type: 'text', text: 'It is noon.' }] },
    ])
    for (const request of requests) {
      expect(request.system?.[0]?.cache_control).toEqual({ type: 'ephemeral' })
      const marked = request.messages.flatMap((message) =>
        message.content.filter((part) => part.cache_control !== undefined),
      )
      expect(marked).toHaveLength(1)
      expect(request.messages.at(-1)?.content.at(-1)?.cache_control).toEqual({ type: 'ephemeral' })
    }
  })

  test('reports usage without counting cache reads twice', async () => {
    const { result, log } = await runAnthropic([
      {
        blocks: [{ type: 'tool-call', name: 'get_time', input: {} }],
        usage: { inputTokens: 50, cacheWriteTokens: 200, cacheReadTokens: 1000, outputTokens: 10 },
      },
      {
        blocks: [{ type: 'text', text: 'Done.' }],
        usage: { inputTokens: 30, cacheReadTokens: 1250, outputTokens: 5 },
      },
    ])
    expect(log.ofType('data-usage').map((chunk) => chunk.data)).toEqual([
      {
        inputTokens: 250,
        cacheReadTokens: 1000,
        outputTokens: 10,
        used: 1260,
        limit: 200_000,
        percentage: 0.6,
      },
      {
        inputTokens: 30,
        cacheReadTokens: 1250,
        outputTokens: 5,
        used: 1285,
        limit: 200_000,
        percentage: 0.6,
      },
    ])
    expect(result.usage?.used).toBe(1285)
    expect(result.totalUsage.inputTokens).toBe(1250 + 1280)
    expect(result.totalUsage.outputTokens).toBe(15)
  })

  test('a refused path is an error result the model sees, and the loop goes on', async () => {
    const { result, log, requests } = await runAnthropic([
      {
        blocks: [
          { type: 'tool-call', name: 'write_file', input: { path: '../escape', content: 'x' } },
        ],
      },
      { blocks: [{ type: 'text', text: 'That path is not allowed.' }] },
    ])
    expect(existsSync(path.join(context.devbox.workspacePath, '..', 'escape'))).toBe(false)
    const errorText = log.ofType('tool-output-error')[0]?.errorText ?? ''
    expect(errorText).toMatch(/^Path .*outside the workspace/)
    // No class names in what the user and the model read.
    expect(errorText).not.toMatch(/Error:/)
    expect(JSON.stringify(requests[1]?.messages)).toMatch(/"is_error":true/)
    expect(JSON.stringify(requests[1]?.messages)).not.toMatch(/ToolError/)
    expect(result.finishReason).toBe('stop')
  })

  test('the model sees long tool output cut, with a note', async () => {
    const { requests } = await runAnthropic([
      {
        blocks: [
          {
            type: 'tool-call',
            name: 'shell_exec',
            input: { command: `head -c ${TOOL_OUTPUT_LIMIT * 2} /dev/zero | tr '\\0' 'y'` },
          },
        ],
      },
      { blocks: [{ type: 'text', text: 'Lots of y.' }] },
    ])
    const toolResult = JSON.stringify(requests[1]?.messages)
    expect(toolResult.length).toBeLessThan(TOOL_OUTPUT_LIMIT + 2_000)
    expect(toolResult.includes('"content":"[output cut: the first 300')).toBe(true)
  })

  test('staged messages join at the next step boundary, in order', async () => {
    // Asked at the boundary after the first step, not before it (the run just took a message).
    const staged = [['Also add a footer', 'And make it green']]
    const { result, requests } = await runAnthropic(
      [
        { blocks: [{ type: 'tool-call', name: 'get_time', input: {} }] },
        { blocks: [{ type: 'text', text: 'Footer added, in green.' }] },
      ],
      { takeStagedMessages: async () => staged.shift() ?? [] },
    )
    expect(staged).toEqual([])
    const lastTurn = requests[1]?.messages.at(-1)
    expect(lastTurn?.role).toBe('user')
    expect(lastTurn?.content.map((part) => part.type)).toEqual(['tool_result', 'text', 'text'])
    expect(lastTurn?.content.slice(1).map((part) => part.text)).toEqual([
      'Also add a footer',
      'And make it green',
    ])
    expect(result.responseMessages.map((message) => message.role)).toEqual([
      'assistant',
      'tool',
      'user',
      'user',
      'assistant',
    ])
  })

  test('an interrupt stops a stream the provider holds open within 500 ms', async () => {
    const controller = new AbortController()
    const log = collectChunks()
    const interruptedAt = { time: 0 }
    const running = runAnthropic(
      [{ blocks: [{ type: 'text', text: 'Thinking out loud' }], holdOpen: true }],
      {
        abortSignal: controller.signal,
        onChunk: (chunk) => {
          log.onChunk(chunk)
          if (chunk.type === 'text-delta' && interruptedAt.time === 0) {
            interruptedAt.time = Date.now()
            controller.abort()
          }
        },
      },
    )
    const { result } = await running
    expect(Date.now() - interruptedAt.time).toBeLessThan(500)
    expect(log.types()).not.toContain('finish')
    expect(log.chunks.at(-1)).toEqual({
      type: 'data-error',
      data: { error: 'User interrupted', errorType: 'interrupt' },
    })
    expect(result.finishReason).toBe('aborted')
    expect(result.error?.errorType).toBe('interrupt')
    const interrupted = result.messages.at(-1)
    expect(interrupted?.role).toBe('assistant')
    expect(String(interrupted?.content)).toMatch(/^Thinki/)
    expect(String(interrupted?.content).endsWith(`\n\n${USER_INTERRUPTED_MARKER}`)).toBe(true)
  })

  test('an interrupt kills a running shell command and ends the run', async () => {
    const controller = new AbortController()
    const started = Date.now()
    const seen = collectChunks()
    const { result, requests } = await runAnthropic(
      [
        {
          blocks: [
            { type: 'tool-call', name: 'shell_exec', input: { command: 'sleep 30', timeout: 60 } },
          ],
        },
        { blocks: [{ type: 'text', text: 'Never asked for.' }] },
      ],
      {
        abortSignal: controller.signal,
        onChunk: (chunk) => {
          seen.onChunk(chunk)
          if (chunk.type === 'tool-input-available') setTimeout(() => controller.abort(), 100)
        },
      },
    )
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(requests).toHaveLength(1)
    expect(result.finishReason).toBe('aborted')
    expect(seen.ofType('data-error').map((chunk) => chunk.data.errorType)).toEqual(['interrupt'])
  })

  test('compacts older history past 85 % of the context window', async () => {
    const history: ModelMessage[] = Array.from({ length: 8 }, (_, index) =>
      index % 2 === 0
        ? { role: 'user', content: `Request number ${index}` }
        : { role: 'assistant', content: `Answer number ${index}` },
    )
    const { result, log, requests } = await runAnthropic(
      [
        {
          blocks: [{ type: 'tool-call', name: 'get_time', input: {} }],
          usage: { inputTokens: 880, outputTokens: 20 },
        },
        { blocks: [{ type: 'text', text: 'The user made requests 0 to 6.' }] },
        { blocks: [{ type: 'text', text: 'Here is the time.' }] },
      ],
      { contextWindow: 1_000, messages: [...history, { role: 'user', content: 'Time?' }] },
    )
    expect(log.ofType('data-compaction').map((chunk) => chunk.data.status)).toEqual([
      'started',
      'done',
    ])
    expect(requests).toHaveLength(3)
    expect(requests[1]?.tools).toBeUndefined()
    expect(JSON.stringify(requests[1]?.messages)).toContain('Request number 0')
    const afterCompaction = JSON.stringify(requests[2]?.messages)
    expect(afterCompaction).toContain('<compacted-history>')
    expect(afterCompaction).toContain('The user made requests 0 to 6.')
    expect(afterCompaction).not.toContain('Request number 0')
    expect(result.compacted).toBe(true)
    expect(JSON.stringify(result.messages[0])).toContain('The user made requests 0 to 6.')
  })

  test('without a tool context the model is offered no tools', async () => {
    const { requests } = await runAnthropic(
      [{ blocks: [{ type: 'text', text: 'Let us brainstorm.' }] }],
      {
        toolContext: undefined,
      },
    )
    expect(requests[0]?.tools).toBeUndefined()
  })
})

describe('provider errors end the run with a classified error chunk', () => {
  const cases: [string, FakeTurn, string][] = [
    ['429', { status: 429 }, 'ratelimited'],
    ['529 overloaded', { status: 529 }, 'overloaded'],
    ['500', { status: 500 }, 'internal'],
    [
      'an overloaded_error event mid-stream',
      {
        blocks: [{ type: 'text', text: 'Partial' }],
        streamError: { type: 'overloaded_error', message: 'Overloaded' },
      },
      'overloaded',
    ],
    [
      'a connection cut mid-stream',
      { blocks: [{ type: 'text', text: 'Partial answer' }], cutConnection: true, eventDelayMs: 5 },
      'internal',
    ],
  ]
  test.each(cases)('%s', async (_name, turn, errorType) => {
    const { result, log } = await runAnthropic([turn])
    const errors = log.ofType('data-error').map((chunk) => chunk.data)
    expect(errors).toHaveLength(1)
    expect(errors[0]?.errorType).toBe(errorType)
    expect(log.types()).not.toContain('error')
    expect(result.error?.errorType).toBe(errorType)
    if (turn === cases[4]?.[1]) {
      expect(errors[0]?.error).toBe(
        'The connection to the AI provider was lost before the answer was complete.',
      )
    }
  })
})

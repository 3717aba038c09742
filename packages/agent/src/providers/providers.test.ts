import { createOpenAI } from '@ai-sdk/openai'
import type { LanguageModel } from 'ai'
import { describe, expect, test } from 'vitest'
import { collectChunks } from '../testing/collect-chunks.ts'
import { startFakeOpenAIChat } from '../testing/fake-openai-chat.ts'
import { startFakeOpenAIResponses } from '../testing/fake-openai-responses.ts'
import type { FakeTurn } from '../testing/fake-provider-script.ts'
import type { FakeProviderServer } from '../testing/fake-provider-server.ts'
import { useAgentTestContext } from '../testing/use-agent-context.ts'
import { createLanguageModel } from './create-language-model.ts'
import type { ProvidersConfig } from './providers-config.ts'

const context = useAgentTestContext()

const configFor = (baseUrl: string): ProvidersConfig => ({
  anthropic: { baseUrl },
  openai: { apiKey: 'openai-key', baseUrl },
  xai: { apiKey: 'xai-key', baseUrl },
  openaiCompatible: { baseUrl, models: ['llama3.2'] },
})

type Provider = {
  name: string
  start: (script: FakeTurn[]) => Promise<FakeProviderServer>
  model: (baseUrl: string) => LanguageModel
  path: string
}

const providers: Provider[] = [
  {
    name: 'OpenAI (Responses API)',
    start: startFakeOpenAIResponses,
    model: (baseUrl) => createLanguageModel('gpt-5', configFor(baseUrl)),
    path: '/v1/responses',
  },
  {
    name: 'OpenAI (chat completions)',
    start: startFakeOpenAIChat,
    model: (baseUrl) => createOpenAI({ apiKey: 'openai-key', baseURL: baseUrl }).chat('gpt-5-mini'),
    path: '/v1/chat/completions',
  },
  {
    name: 'xAI',
    start: startFakeOpenAIResponses,
    model: (baseUrl) => createLanguageModel('grok-code-fast-1', configFor(baseUrl)),
    path: '/v1/responses',
  },
  {
    name: 'OpenAI-compatible',
    start: startFakeOpenAIChat,
    model: (baseUrl) => createLanguageModel('llama3.2', configFor(baseUrl)),
    path: '/v1/chat/completions',
  },
]

async function run(provider: Provider, script: FakeTurn[]) {
  const server = await context.startServer(provider.start, script)
  const log = collectChunks()
  const result = await context.runAgent({
    model: provider.model(server.baseUrl),
    modelId: 'test-model',
    contextWindow: 100_000,
    messages: [{ role: 'user', content: 'Write hello.txt' }],
    onChunk: log.onChunk,
  })
  return { result, log, requests: server.requests }
}

describe.each(providers)('$name', (provider) => {
  test('runs tools over steps against the real wire format', async () => {
    const { result, log, requests } = await run(provider, [
      {
        blocks: [
          { type: 'thinking', text: 'One file, then check it.' },
          { type: 'text', text: 'Writing it.' },
          { type: 'tool-call', name: 'write_file', input: { path: 'hello.txt', content: 'hello' } },
        ],
        usage: { inputTokens: 400, cacheReadTokens: 600, outputTokens: 50 },
      },
      { blocks: [{ type: 'tool-call', name: 'shell_exec', input: { command: 'cat hello.txt' } }] },
      { blocks: [{ type: 'text', text: 'hello.txt says hello.' }] },
    ])
    expect(await context.devbox.files.read('hello.txt')).toBe('hello')
    expect(requests.map((request) => request.path)).toEqual([
      provider.path,
      provider.path,
      provider.path,
    ])
    expect(JSON.stringify(requests[1]?.body)).toContain('Wrote hello.txt (1 line).')
    expect(JSON.stringify(requests[2]?.body)).toContain('hello\\n[exit code 0]')
    expect(log.ofType('data-usage')[0]?.data).toEqual({
      inputTokens: 400,
      cacheReadTokens: 600,
      outputTokens: 50,
      used: 1050,
      limit: 100_000,
      percentage: 1.1,
    })
    expect(log.text()).toBe('Writing it.hello.txt says hello.')
    expect(result.finishReason).toBe('stop')
  })

  test.each([
    [429, 'ratelimited'],
    [503, 'overloaded'],
    [500, 'internal'],
  ])('HTTP %i is %s', async (status, errorType) => {
    const { result, log } = await run(provider, [{ status }])
    expect(log.ofType('data-error').map((chunk) => chunk.data.errorType)).toEqual([errorType])
    expect(result.error?.errorType).toBe(errorType)
  })
})

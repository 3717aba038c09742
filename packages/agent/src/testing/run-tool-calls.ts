/** TEST HELPER: a scripted model makes tool calls through the agent's real tools on a box. */
import { createAnthropic } from '@ai-sdk/anthropic'
import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import { runAgent } from '../run-agent.ts'
import { collectChunks } from './collect-chunks.ts'
import { startFakeAnthropic } from './fake-anthropic.ts'

export type ToolCall = { name: string; input: Record<string, unknown> }

/**
 * One step of `calls` from a fake Anthropic server (the real wire format), then a closing
 * answer; returns every chunk the run emitted.
 */
export async function runToolCalls(box: Devbox, calls: ToolCall[]) {
  const server = await startFakeAnthropic([
    { blocks: calls.map((call) => ({ type: 'tool-call' as const, ...call })) },
    { blocks: [{ type: 'text', text: 'Done.' }] },
  ])
  try {
    const log = collectChunks()
    await runAgent({
      model: createAnthropic({ apiKey: 'test', baseURL: server.baseUrl })('claude-sonnet-4-5'),
      modelId: 'claude-sonnet-4-5',
      contextWindow: 200_000,
      system: 'You build apps.',
      messages: [{ role: 'user', content: 'Try it.' }],
      toolContext: { devbox: box },
      maxRetries: 0,
      onChunk: log.onChunk,
    })
    return log
  } finally {
    await server.close()
  }
}

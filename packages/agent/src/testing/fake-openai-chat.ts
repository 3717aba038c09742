/**
 * TEST FIXTURE: a fake OpenAI Chat Completions API (also what OpenAI-compatible servers such as
 * Ollama, vLLM and LM Studio speak), streaming `data:` chunks and `[DONE]`.
 */
import {
  defaultFakeUsage,
  type FakeErrorTurn,
  type FakeStreamTurn,
  type FakeTurn,
  type RecordedRequest,
  requestedModel,
} from './fake-provider-script.ts'
import { startFakeProviderServer, type WireFormat } from './fake-provider-server.ts'
import { splitForStreaming } from './split-for-streaming.ts'

let completionCounter = 0

const openaiErrorTypesByStatus: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_api_key',
  429: 'rate_limit_exceeded',
  500: 'server_error',
  503: 'service_unavailable',
}

/** The error body of both OpenAI APIs (Chat Completions and Responses). */
export function openaiErrorBody(turn: FakeErrorTurn) {
  const type = turn.errorType ?? openaiErrorTypesByStatus[turn.status] ?? 'server_error'
  return { error: { message: turn.message ?? `Fake ${type}`, type, param: null, code: type } }
}

function usageBody(turn: FakeStreamTurn) {
  const usage = turn.usage ?? defaultFakeUsage
  const cached = usage.cacheReadTokens ?? 0
  return {
    prompt_tokens: usage.inputTokens + cached,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + cached + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: cached },
  }
}

function jsonBody(turn: FakeStreamTurn, request: RecordedRequest) {
  completionCounter += 1
  const text = turn.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : []))
  const reasoning = turn.blocks.flatMap((block) => (block.type === 'thinking' ? [block.text] : []))
  const toolCalls = turn.blocks.flatMap((block, index) =>
    block.type === 'tool-call'
      ? [
          {
            id: block.id ?? `call_fake_${completionCounter}_${index}`,
            type: 'function',
            function: { name: block.name, arguments: JSON.stringify(block.input) },
          },
        ]
      : [],
  )
  return {
    id: `chatcmpl-fake-${completionCounter}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: requestedModel(request, 'gpt-fake'),
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text.length > 0 ? text.join('') : null,
          ...(reasoning.length > 0 ? { reasoning_content: reasoning.join('') } : {}),
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
      },
    ],
    usage: usageBody(turn),
  }
}

const openaiChatFormat: WireFormat = {
  paths: ['/v1/chat/completions'],
  jsonBody,
  endOfStream: 'data: [DONE]',
  errorBody: openaiErrorBody,
  streamError: async (error, write) => {
    await write(undefined, {
      error: { message: error.message, type: error.type, code: error.type },
    })
  },
  streamBlocks: async (turn, write, request) => {
    completionCounter += 1
    const base = {
      id: `chatcmpl-fake-${completionCounter}`,
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model: requestedModel(request, 'gpt-fake'),
    }
    const chunk = (delta: unknown, finishReason: string | null = null) =>
      write(undefined, { ...base, choices: [{ index: 0, delta, finish_reason: finishReason }] })
    await chunk({ role: 'assistant', content: '' })
    let toolIndex = 0
    for (const block of turn.blocks) {
      if (block.type === 'thinking') {
        for (const piece of splitForStreaming(block.text)) await chunk({ reasoning_content: piece })
      } else if (block.type === 'text') {
        for (const piece of splitForStreaming(block.text)) await chunk({ content: piece })
      } else {
        const index = toolIndex++
        const id = block.id ?? `call_fake_${completionCounter}_${index}`
        await chunk({
          tool_calls: [
            { index, id, type: 'function', function: { name: block.name, arguments: '' } },
          ],
        })
        for (const piece of splitForStreaming(JSON.stringify(block.input))) {
          await chunk({ tool_calls: [{ index, function: { arguments: piece } }] })
        }
      }
    }
    return async () => {
      await chunk({}, toolIndex > 0 ? 'tool_calls' : 'stop')
      await write(undefined, { ...base, choices: [], usage: usageBody(turn) })
    }
  },
}

export function startFakeOpenAIChat(script: FakeTurn[]) {
  return startFakeProviderServer(openaiChatFormat, script)
}

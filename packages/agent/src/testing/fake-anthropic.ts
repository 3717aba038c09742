/** TEST FIXTURE: a fake Anthropic Messages API speaking its SSE wire format. */
import { defaultFakeUsage, type FakeTurn, requestedModel } from './fake-provider-script.ts'
import { startFakeProviderServer, type WireFormat } from './fake-provider-server.ts'
import { splitForStreaming } from './split-for-streaming.ts'

const errorTypesByStatus: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
}

const errorBody: WireFormat['errorBody'] = (turn) => {
  const type = turn.errorType ?? errorTypesByStatus[turn.status] ?? 'api_error'
  return { type: 'error', error: { type, message: turn.message ?? `Fake ${type}` } }
}

let messageCounter = 0

const jsonBody: WireFormat['jsonBody'] = (turn, request) => {
  messageCounter += 1
  const usage = turn.usage ?? defaultFakeUsage
  const content = turn.blocks.map((block, index) => {
    if (block.type === 'thinking') {
      return {
        type: 'thinking',
        thinking: block.text,
        signature: block.signature ?? `sig-${index}`,
      }
    }
    if (block.type === 'text') return { type: 'text', text: block.text }
    const id = block.id ?? `toolu_fake_${messageCounter}_${index}`
    return { type: 'tool_use', id, name: block.name, input: block.input }
  })
  return {
    id: `msg_fake_${messageCounter}`,
    type: 'message',
    role: 'assistant',
    model: requestedModel(request, 'claude-fake'),
    content,
    stop_reason: content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: usage.inputTokens,
      cache_creation_input_tokens: usage.cacheWriteTokens ?? 0,
      cache_read_input_tokens: usage.cacheReadTokens ?? 0,
      output_tokens: usage.outputTokens,
    },
  }
}

const anthropicFormat: WireFormat = {
  paths: ['/v1/messages'],
  errorBody,
  jsonBody,
  streamError: async (error, write) => {
    await write('error', { type: 'error', error })
  },
  streamBlocks: async (turn, write, request) => {
    messageCounter += 1
    const usage = turn.usage ?? defaultFakeUsage
    await write('message_start', {
      type: 'message_start',
      message: {
        id: `msg_fake_${messageCounter}`,
        type: 'message',
        role: 'assistant',
        model: requestedModel(request, 'claude-fake'),
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.inputTokens,
          cache_creation_input_tokens: usage.cacheWriteTokens ?? 0,
          cache_read_input_tokens: usage.cacheReadTokens ?? 0,
          output_tokens: 1,
        },
      },
    })
    await write('ping', { type: 'ping' })
    let hasToolUse = false
    for (const [index, block] of turn.blocks.entries()) {
      const delta = (payload: unknown) =>
        write('content_block_delta', { type: 'content_block_delta', index, delta: payload })
      if (block.type === 'thinking') {
        await write('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'thinking', thinking: '', signature: '' },
        })
        for (const piece of splitForStreaming(block.text)) {
          await delta({ type: 'thinking_delta', thinking: piece })
        }
        await delta({ type: 'signature_delta', signature: block.signature ?? `sig-${index}` })
      } else if (block.type === 'text') {
        await write('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'text', text: '' },
        })
        for (const piece of splitForStreaming(block.text)) {
          await delta({ type: 'text_delta', text: piece })
        }
      } else {
        hasToolUse = true
        await write('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: {
            type: 'tool_use',
            id: block.id ?? `toolu_fake_${messageCounter}_${index}`,
            name: block.name,
            input: {},
          },
        })
        for (const piece of splitForStreaming(JSON.stringify(block.input))) {
          await delta({ type: 'input_json_delta', partial_json: piece })
        }
      }
      await write('content_block_stop', { type: 'content_block_stop', index })
    }
    return async () => {
      await write('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: hasToolUse ? 'tool_use' : 'end_turn', stop_sequence: null },
        usage: { output_tokens: usage.outputTokens },
      })
      await write('message_stop', { type: 'message_stop' })
    }
  },
}

export function startFakeAnthropic(script: FakeTurn[]) {
  return startFakeProviderServer(anthropicFormat, script)
}

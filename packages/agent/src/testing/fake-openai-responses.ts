/**
 * TEST FIXTURE: a fake OpenAI Responses API, which `openai(id)` uses by default and which xAI
 * speaks too (@ai-sdk/xai 5 only has the Responses API).
 */
import { openaiErrorBody } from './fake-openai-chat.ts'
import {
  defaultFakeUsage,
  type FakeBlock,
  type FakeStreamTurn,
  type FakeTurn,
  type RecordedRequest,
  requestedModel,
} from './fake-provider-script.ts'
import {
  type EventWriter,
  startFakeProviderServer,
  type WireFormat,
} from './fake-provider-server.ts'
import { splitForStreaming } from './split-for-streaming.ts'

let responseCounter = 0

function responseHeader(request: RecordedRequest) {
  responseCounter += 1
  return {
    id: `resp_fake_${responseCounter}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    model: requestedModel(request, 'gpt-fake'),
  }
}

/** The finished output item of a block, as `response.output_item.done` and the JSON body carry it. */
function outputItem(block: FakeBlock, itemId: string) {
  switch (block.type) {
    case 'thinking':
      return {
        type: 'reasoning',
        id: itemId,
        summary: [{ type: 'summary_text', text: block.text }],
        encrypted_content: null,
        status: 'completed',
      }
    case 'text':
      return {
        type: 'message',
        id: itemId,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: block.text, annotations: [] }],
      }
    case 'tool-call':
      return {
        type: 'function_call',
        id: itemId,
        call_id: block.id ?? `call_${itemId}`,
        name: block.name,
        arguments: JSON.stringify(block.input),
        status: 'completed',
      }
  }
}

function usageBody(turn: FakeStreamTurn) {
  const usage = turn.usage ?? defaultFakeUsage
  const cached = usage.cacheReadTokens ?? 0
  return {
    input_tokens: usage.inputTokens + cached,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.inputTokens + cached + usage.outputTokens,
  }
}

async function streamItem(
  block: FakeBlock,
  itemId: string,
  outputIndex: number,
  write: EventWriter,
) {
  const at = { item_id: itemId, output_index: outputIndex }
  const done = outputItem(block, itemId)
  if (block.type === 'thinking') {
    await write('response.output_item.added', {
      output_index: outputIndex,
      item: { type: 'reasoning', id: itemId, summary: [], status: 'in_progress' },
    })
    const part = { type: 'summary_text', text: block.text }
    await write('response.reasoning_summary_part.added', {
      ...at,
      summary_index: 0,
      part: { ...part, text: '' },
    })
    for (const delta of splitForStreaming(block.text)) {
      await write('response.reasoning_summary_text.delta', { ...at, summary_index: 0, delta })
    }
    await write('response.reasoning_summary_text.done', {
      ...at,
      summary_index: 0,
      text: block.text,
    })
    await write('response.reasoning_summary_part.done', { ...at, summary_index: 0, part })
  } else if (block.type === 'text') {
    await write('response.output_item.added', {
      output_index: outputIndex,
      item: { type: 'message', id: itemId, role: 'assistant', status: 'in_progress', content: [] },
    })
    const part = { type: 'output_text', text: block.text, annotations: [] }
    await write('response.content_part.added', {
      ...at,
      content_index: 0,
      part: { ...part, text: '' },
    })
    for (const delta of splitForStreaming(block.text)) {
      await write('response.output_text.delta', { ...at, content_index: 0, delta, logprobs: [] })
    }
    await write('response.output_text.done', { ...at, content_index: 0, text: block.text })
    await write('response.content_part.done', { ...at, content_index: 0, part })
  } else {
    await write('response.output_item.added', {
      output_index: outputIndex,
      item: { ...done, arguments: '', status: 'in_progress' },
    })
    const args = JSON.stringify(block.input)
    for (const delta of splitForStreaming(args)) {
      await write('response.function_call_arguments.delta', { ...at, delta })
    }
    await write('response.function_call_arguments.done', { ...at, arguments: args })
  }
  await write('response.output_item.done', { output_index: outputIndex, item: done })
}

const responsesFormat: WireFormat = {
  paths: ['/v1/responses'],
  errorBody: openaiErrorBody,
  jsonBody: (turn, request) => {
    const header = responseHeader(request)
    return {
      ...header,
      status: 'completed',
      incomplete_details: null,
      output: turn.blocks.map((block, index) =>
        outputItem(block, `item_${responseCounter}_${index}`),
      ),
      usage: usageBody(turn),
    }
  },
  streamError: async (error, write) => {
    await write('error', {
      type: 'error',
      sequence_number: 999,
      code: error.type,
      message: error.message,
      param: null,
    })
  },
  streamBlocks: async (turn, rawWrite, request) => {
    let sequence = 0
    const write: EventWriter = (event, data) =>
      rawWrite(event, { type: event, sequence_number: sequence++, ...(data as object) })
    const header = responseHeader(request)
    const counter = responseCounter
    await write('response.created', { response: { ...header, status: 'in_progress', output: [] } })
    await write('response.in_progress', {
      response: { ...header, status: 'in_progress', output: [] },
    })
    const output = turn.blocks.map((block, index) => outputItem(block, `item_${counter}_${index}`))
    for (const [index, block] of turn.blocks.entries()) {
      await streamItem(block, `item_${counter}_${index}`, index, write)
    }
    return async () => {
      await write('response.completed', {
        response: {
          ...header,
          status: 'completed',
          incomplete_details: null,
          output,
          usage: usageBody(turn),
        },
      })
    }
  },
}

export function startFakeOpenAIResponses(script: FakeTurn[]) {
  return startFakeProviderServer(responsesFormat, script)
}

import { stepCountIs, streamText, type TextStreamPart, type ToolSet, toUIMessageStream } from 'ai'
import type { AgentChunk } from './agent-chunk.ts'
import { type AgentRunState, createAgentRunState, emitChunk } from './agent-run-state.ts'
import { cachedSystemPrompt } from './anthropic-prompt-cache.ts'
import { finishAgentRun } from './finish-agent-run.ts'
import { forwardAgentChunks } from './forward-agent-chunks.ts'
import { prepareAgentStep } from './prepare-agent-step.ts'
import { classifyProviderError } from './providers/classify-provider-error.ts'
import {
  DEFAULT_MAX_STEPS,
  type RunAgentOptions,
  type RunAgentResult,
} from './run-agent-options.ts'
import { createToolOutputRelay } from './tool-output-relay.ts'
import { createAgentTools } from './tools/create-agent-tools.ts'
import { addUsage } from './usage-data.ts'

export {
  DEFAULT_MAX_STEPS,
  type RunAgentOptions,
  type RunAgentResult,
} from './run-agent-options.ts'

/** Usage rides on the SDK's finish-step part, which the UI chunk of the same name drops. */
function recordUsage(state: AgentRunState) {
  return new TransformStream<TextStreamPart<ToolSet>, TextStreamPart<ToolSet>>({
    transform(part, controller) {
      if (part.type === 'finish-step') {
        state.stepUsages.push(part.usage)
        state.totalUsage = addUsage(state.totalUsage, part.usage)
      }
      controller.enqueue(part)
    },
  })
}

/**
 * The agent loop (docs/architecture/agent-loop.md). A provider failure or an interrupt ends the run
 * with a classified `data-error` chunk; runAgent itself only throws when `onChunk` does.
 */
export async function runAgent(options: RunAgentOptions): Promise<RunAgentResult> {
  const state = createAgentRunState(options)
  const toolOutput = createToolOutputRelay((chunk: AgentChunk) => emitChunk(state, chunk))
  const tools: ToolSet = options.toolContext
    ? createAgentTools({ ...options.toolContext, onToolOutput: toolOutput.forward })
    : {}
  const result = streamText({
    model: options.model,
    instructions: state.anthropic ? cachedSystemPrompt(options.system) : options.system,
    messages: state.history,
    tools,
    stopWhen: stepCountIs(options.maxSteps ?? DEFAULT_MAX_STEPS),
    // A step's calls run at once; file changes keep their order (tools/order-tool-calls.ts).
    abortSignal: options.abortSignal,
    maxRetries: options.maxRetries,
    reasoning: options.reasoning,
    prepareStep: (step) => prepareAgentStep(state, step),
    onStepFinish: (step) => {
      state.history = [...state.history, ...step.response.messages]
      state.responseMessages.push(...step.response.messages)
      state.lastCallTokens = (step.usage.inputTokens ?? 0) + (step.usage.outputTokens ?? 0)
    },
    // Errors reach the caller as data-error chunks; the SDK would also log them.
    onError: () => {},
  })
  const uiChunks = toUIMessageStream({
    stream: result.stream.pipeThrough(recordUsage(state)),
    tools,
    sendReasoning: true,
    // Tool errors are meant for the model and the user alike, so they must stay unredacted here.
    redactToolErrors: false,
    onError: (error) => {
      state.classifiedError = classifyProviderError(error)
      return state.classifiedError.message
    },
  })
  await forwardAgentChunks(state, uiChunks, toolOutput)
  return finishAgentRun(state)
}

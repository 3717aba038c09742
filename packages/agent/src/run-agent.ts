import type { TokenUsage } from '@sprout/protocol/stream/stream-chunk.ts'
import { USER_INTERRUPTED_MARKER } from '@sprout/protocol/text/strip-markers.ts'
import {
  type FinishReason,
  type LanguageModel,
  type LanguageModelCallOptions,
  type LanguageModelUsage,
  type ModelMessage,
  type PrepareStepResult,
  stepCountIs,
  streamText,
  type TextStreamPart,
  type ToolSet,
  toUIMessageStream,
} from 'ai'
import type { AgentChunk } from './agent-chunk.ts'
import {
  cachedSystemPrompt,
  isAnthropicModel,
  withHistoryBreakpoint,
  withoutHistoryBreakpoints,
} from './anthropic-prompt-cache.ts'
import {
  COMPACTION_THRESHOLD,
  canCompactHistory,
  compactHistory,
  estimateTokens,
} from './compact-history.ts'
import {
  type ClassifiedProviderError,
  classifyProviderError,
} from './providers/classify-provider-error.ts'
import { createToolOutputRelay } from './tool-output-relay.ts'
import { createAgentTools } from './tools/create-agent-tools.ts'
import type { ToolContext } from './tools/tool-context.ts'
import { addUsage, emptyUsage, toTokenUsage } from './usage-data.ts'

export const DEFAULT_MAX_STEPS = 50

export type RunAgentOptions = {
  model: LanguageModel
  /** The catalogue id; tells Anthropic models apart when `model` is given as a string. */
  modelId: string
  contextWindow: number
  system: string
  /** The conversation so far, ending with the user's new message. */
  messages: ModelMessage[]
  /** What the tools work with; without it the model gets no tools (exploration chat). */
  toolContext?: Omit<ToolContext, 'onToolOutput'>
  maxSteps?: number
  abortSignal?: AbortSignal
  /** Receives every chunk in order; awaited, so a slow consumer slows the run, never reorders it. */
  onChunk: (chunk: AgentChunk) => void | Promise<void>
  /** Called at each step boundary; the texts are added as user messages, in order. */
  takeStagedMessages?: () => Promise<string[]>
  /** Provider retries on 429/5xx before the run fails; the SDK's default is 2. */
  maxRetries?: number
  compactionThreshold?: number
  /** How hard reasoning models think; each provider maps it to its own setting. */
  reasoning?: LanguageModelCallOptions['reasoning']
}

export type RunAgentResult = {
  /** Messages added by this run, in order: staged user messages, assistant turns, tool results. */
  responseMessages: ModelMessage[]
  /** The whole conversation to send next time; older history is summarised if it was compacted. */
  messages: ModelMessage[]
  compacted: boolean
  finishReason: FinishReason | 'aborted'
  /** Context use of the last model call. */
  usage: TokenUsage | undefined
  /** Tokens of all model calls of this run. */
  totalUsage: LanguageModelUsage
  error?: ClassifiedProviderError
}

const userMessage = (text: string): ModelMessage => ({ role: 'user', content: text })

/**
 * Runs the agent loop (docs/architecture/agent-loop.md): streamText with tools until the model
 * answers or maxSteps, forwarding UI chunks, shell output, usage and compaction notes, and taking
 * staged messages at step boundaries. A provider failure or an interrupt ends the run with a
 * classified `data-error` chunk; runAgent itself only throws when `onChunk` does.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: the agent loop reads top to bottom: steps, chunks, interrupt, result
export async function runAgent(options: RunAgentOptions): Promise<RunAgentResult> {
  const anthropic = isAnthropicModel(options.model, options.modelId)
  const threshold = options.compactionThreshold ?? COMPACTION_THRESHOLD

  let emitting: Promise<void> = Promise.resolve()
  const emit = (chunk: AgentChunk): Promise<void> => {
    emitting = emitting.then(() => options.onChunk(chunk))
    return emitting
  }
  let interruptReported = false
  const emitError = (error: ClassifiedProviderError) => {
    if (error.errorType === 'interrupt') interruptReported = true
    return emit({ type: 'data-error', data: { error: error.message, errorType: error.errorType } })
  }

  const toolOutput = createToolOutputRelay(emit)
  const tools: ToolSet = options.toolContext
    ? createAgentTools({ ...options.toolContext, onToolOutput: toolOutput.forward })
    : {}

  let history = withoutHistoryBreakpoints(options.messages)
  const responseMessages: ModelMessage[] = []
  let lastCallTokens: number | undefined
  let compacted = false

  const prepareStep = async ({
    messages,
    stepNumber,
  }: {
    messages: ModelMessage[]
    stepNumber: number
  }): Promise<PrepareStepResult<ToolSet>> => {
    let stepMessages = withoutHistoryBreakpoints(messages)
    // The first step is no boundary: the run has just taken the user's message.
    const staged = stepNumber === 0 ? [] : ((await options.takeStagedMessages?.()) ?? [])
    if (staged.length > 0) {
      const added = staged.map(userMessage)
      stepMessages = [...stepMessages, ...added]
      responseMessages.push(...added)
    }
    const size = lastCallTokens ?? estimateTokens(stepMessages)
    if (size > threshold * options.contextWindow && canCompactHistory(stepMessages)) {
      await emit({ type: 'data-compaction', data: { status: 'started' } })
      try {
        stepMessages =
          (await compactHistory({
            model: options.model,
            messages: stepMessages,
            abortSignal: options.abortSignal,
            maxRetries: options.maxRetries,
          })) ?? stepMessages
        compacted = true
        lastCallTokens = undefined
      } finally {
        await emit({ type: 'data-compaction', data: { status: 'done' } })
      }
    }
    history = stepMessages
    return { messages: anthropic ? withHistoryBreakpoint(stepMessages) : stepMessages }
  }

  // Usage rides on the SDK's finish-step part, which the UI chunk of the same name drops.
  const stepUsages: LanguageModelUsage[] = []
  let totalUsage = emptyUsage
  const recordUsage = new TransformStream<TextStreamPart<ToolSet>, TextStreamPart<ToolSet>>({
    transform(part, controller) {
      if (part.type === 'finish-step') {
        stepUsages.push(part.usage)
        totalUsage = addUsage(totalUsage, part.usage)
      }
      controller.enqueue(part)
    },
  })

  const result = streamText({
    model: options.model,
    instructions: anthropic ? cachedSystemPrompt(options.system) : options.system,
    messages: history,
    tools,
    stopWhen: stepCountIs(options.maxSteps ?? DEFAULT_MAX_STEPS),
    // A step's calls run at once; file changes keep their order (tools/order-tool-calls.ts).
    abortSignal: options.abortSignal,
    maxRetries: options.maxRetries,
    reasoning: options.reasoning,
    prepareStep,
    onStepFinish: (step) => {
      history = [...history, ...step.response.messages]
      responseMessages.push(...step.response.messages)
      lastCallTokens = (step.usage.inputTokens ?? 0) + (step.usage.outputTokens ?? 0)
    },
    // Errors reach the caller as data-error chunks; the SDK would also log them.
    onError: () => {},
  })

  let classifiedError: ClassifiedProviderError | undefined
  const uiChunks = toUIMessageStream({
    stream: result.stream.pipeThrough(recordUsage),
    tools,
    sendReasoning: true,
    // Tool errors are meant for the model and the user alike, so they must stay unredacted here.
    redactToolErrors: false,
    onError: (error) => {
      classifiedError = classifyProviderError(error)
      return classifiedError.message
    },
  })

  let finishReason: FinishReason | 'aborted' | undefined
  let usage: TokenUsage | undefined
  let stepText = ''
  try {
    for await (const chunk of uiChunks) {
      if (chunk.type === 'error') {
        await emitError(classifiedError ?? classifyProviderError(chunk.errorText))
        continue
      }
      await emit(chunk)
      switch (chunk.type) {
        case 'start-step':
          stepText = ''
          break
        case 'text-delta':
          stepText += chunk.delta
          break
        case 'tool-input-available':
        case 'tool-input-error':
          await toolOutput.announce(chunk.toolCallId)
          break
        case 'finish-step': {
          const stepUsage = stepUsages.shift()
          if (stepUsage?.inputTokens !== undefined || stepUsage?.outputTokens !== undefined) {
            usage = toTokenUsage(stepUsage, options.contextWindow)
            await emit({ type: 'data-usage', data: usage })
          }
          break
        }
        case 'finish':
          finishReason = chunk.finishReason
          break
        case 'abort':
          finishReason = 'aborted'
          break
      }
    }
  } catch (error) {
    classifiedError = classifyProviderError(error)
    if (classifiedError.errorType === 'interrupt') finishReason = 'aborted'
    else await emitError(classifiedError)
  }

  const interrupted =
    finishReason === 'aborted' ||
    classifiedError?.errorType === 'interrupt' ||
    (options.abortSignal?.aborted && !classifiedError)
  if (interrupted) {
    finishReason = 'aborted'
    classifiedError = { errorType: 'interrupt', message: 'User interrupted' }
    if (!interruptReported) await emitError(classifiedError)
    // What the model had said in the interrupted step is kept, marked as cut short
    // (docs/product/builder.md).
    const cutShort: ModelMessage = {
      role: 'assistant',
      content: stepText ? `${stepText}\n\n${USER_INTERRUPTED_MARKER}` : USER_INTERRUPTED_MARKER,
    }
    history = [...history, cutShort]
    responseMessages.push(cutShort)
  }
  await emitting

  return {
    responseMessages,
    messages: history,
    compacted,
    finishReason: finishReason ?? (classifiedError ? 'error' : 'other'),
    usage,
    totalUsage,
    ...(classifiedError ? { error: classifiedError } : {}),
  }
}

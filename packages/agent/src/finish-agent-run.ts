import { USER_INTERRUPTED_MARKER } from '@sprout/protocol/text/strip-markers.ts'
import type { ModelMessage } from 'ai'
import { type AgentRunState, emitError } from './agent-run-state.ts'
import type { RunAgentResult } from './run-agent-options.ts'

/** Closes the run: an interrupt is reported once and its step's text kept, marked as cut short. */
export async function finishAgentRun(state: AgentRunState): Promise<RunAgentResult> {
  const interrupted =
    state.finishReason === 'aborted' ||
    state.classifiedError?.errorType === 'interrupt' ||
    (state.options.abortSignal?.aborted && !state.classifiedError)
  if (interrupted) {
    state.finishReason = 'aborted'
    state.classifiedError = { errorType: 'interrupt', message: 'User interrupted' }
    if (!state.interruptReported) await emitError(state, state.classifiedError)
    // What the model had said in the interrupted step is kept, marked as cut short
    // (docs/product/builder.md).
    const cutShort: ModelMessage = {
      role: 'assistant',
      content: state.stepText
        ? `${state.stepText}\n\n${USER_INTERRUPTED_MARKER}`
        : USER_INTERRUPTED_MARKER,
    }
    state.history = [...state.history, cutShort]
    state.responseMessages.push(cutShort)
  }
  await state.emitting
  return {
    responseMessages: state.responseMessages,
    messages: state.history,
    compacted: state.compacted,
    finishReason: state.finishReason ?? (state.classifiedError ? 'error' : 'other'),
    usage: state.usage,
    totalUsage: state.totalUsage,
    ...(state.classifiedError ? { error: state.classifiedError } : {}),
  }
}

import type { ModelMessage, PrepareStepResult, ToolSet } from 'ai'
import { type AgentRunState, emitChunk } from './agent-run-state.ts'
import { withHistoryBreakpoint, withoutHistoryBreakpoints } from './anthropic-prompt-cache.ts'
import { canCompactHistory, compactHistory, estimateTokens } from './compact-history.ts'

const userMessage = (text: string): ModelMessage => ({ role: 'user', content: text })

/**
 * Before each model call: staged messages taken at the step boundary, the history compacted
 * when it nears the context window (docs/architecture/agent-loop.md).
 */
export async function prepareAgentStep(
  state: AgentRunState,
  { messages, stepNumber }: { messages: ModelMessage[]; stepNumber: number },
): Promise<PrepareStepResult<ToolSet>> {
  const { options } = state
  let stepMessages = withoutHistoryBreakpoints(messages)
  // The first step is no boundary: the run has just taken the user's message.
  const staged = stepNumber === 0 ? [] : ((await options.takeStagedMessages?.()) ?? [])
  if (staged.length > 0) {
    const added = staged.map(userMessage)
    stepMessages = [...stepMessages, ...added]
    state.responseMessages.push(...added)
  }
  const size = state.lastCallTokens ?? estimateTokens(stepMessages)
  if (size > state.threshold * options.contextWindow && canCompactHistory(stepMessages)) {
    await emitChunk(state, { type: 'data-compaction', data: { status: 'started' } })
    try {
      stepMessages =
        (await compactHistory({
          model: options.model,
          messages: stepMessages,
          abortSignal: options.abortSignal,
          maxRetries: options.maxRetries,
        })) ?? stepMessages
      state.compacted = true
      state.lastCallTokens = undefined
    } finally {
      await emitChunk(state, { type: 'data-compaction', data: { status: 'done' } })
    }
  }
  state.history = stepMessages
  return { messages: state.anthropic ? withHistoryBreakpoint(stepMessages) : stepMessages }
}

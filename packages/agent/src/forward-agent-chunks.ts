import type { UIMessageChunk } from 'ai'
import { type AgentRunState, emitChunk, emitError } from './agent-run-state.ts'
import { classifyProviderError } from './providers/classify-provider-error.ts'
import type { createToolOutputRelay } from './tool-output-relay.ts'
import { toTokenUsage } from './usage-data.ts'

/**
 * Forwards the UI chunks in order, noting per step its text, its usage and the run's finish;
 * a provider error becomes a classified `data-error` chunk.
 */
export async function forwardAgentChunks(
  state: AgentRunState,
  uiChunks: AsyncIterable<UIMessageChunk>,
  toolOutput: ReturnType<typeof createToolOutputRelay>,
) {
  try {
    for await (const chunk of uiChunks) {
      if (chunk.type === 'error') {
        await emitError(state, state.classifiedError ?? classifyProviderError(chunk.errorText))
        continue
      }
      await emitChunk(state, chunk)
      switch (chunk.type) {
        case 'start-step':
          state.stepText = ''
          break
        case 'text-delta':
          state.stepText += chunk.delta
          break
        case 'tool-input-available':
        case 'tool-input-error':
          await toolOutput.announce(chunk.toolCallId)
          break
        case 'finish-step': {
          const stepUsage = state.stepUsages.shift()
          if (stepUsage?.inputTokens !== undefined || stepUsage?.outputTokens !== undefined) {
            state.usage = toTokenUsage(stepUsage, state.options.contextWindow)
            await emitChunk(state, { type: 'data-usage', data: state.usage })
          }
          break
        }
        case 'finish':
          state.finishReason = chunk.finishReason
          break
        case 'abort':
          state.finishReason = 'aborted'
          break
      }
    }
  } catch (error) {
    state.classifiedError = classifyProviderError(error)
    if (state.classifiedError.errorType === 'interrupt') state.finishReason = 'aborted'
    else await emitError(state, state.classifiedError)
  }
}

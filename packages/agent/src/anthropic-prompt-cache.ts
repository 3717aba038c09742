import type { LanguageModel, ModelMessage, SystemModelMessage } from 'ai'

const ephemeral = { cacheControl: { type: 'ephemeral' } } as const

export function isAnthropicModel(model: LanguageModel, modelId: string): boolean {
  if (typeof model === 'object') return model.provider.startsWith('anthropic')
  return modelId.startsWith('claude-')
}

/** The system prompt as one cache breakpoint: it is the same for every call of a conversation. */
export function cachedSystemPrompt(system: string): SystemModelMessage {
  return { role: 'system', content: system, providerOptions: { anthropic: ephemeral } }
}

function withoutBreakpoint(message: ModelMessage): ModelMessage {
  const anthropic = message.providerOptions?.anthropic
  if (!anthropic || !('cacheControl' in anthropic)) return message
  const { cacheControl: _removed, ...rest } = anthropic
  const { anthropic: _old, ...otherProviders } = message.providerOptions ?? {}
  const providerOptions =
    Object.keys(rest).length > 0 ? { ...otherProviders, anthropic: rest } : otherProviders
  if (Object.keys(providerOptions).length > 0) return { ...message, providerOptions }
  const { providerOptions: _none, ...plain } = message
  return plain as ModelMessage
}

/**
 * Marks only the last message as a cache breakpoint, so each call reads the history the previous
 * call wrote. Earlier marks are removed: Anthropic allows at most four breakpoints per request.
 */
export function withHistoryBreakpoint(messages: ModelMessage[]): ModelMessage[] {
  const cleaned = messages.map(withoutBreakpoint)
  const last = cleaned.at(-1)
  if (!last) return cleaned
  const marked: ModelMessage = {
    ...last,
    providerOptions: {
      ...last.providerOptions,
      anthropic: { ...last.providerOptions?.anthropic, ...ephemeral },
    },
  } as ModelMessage
  return [...cleaned.slice(0, -1), marked]
}

export function withoutHistoryBreakpoints(messages: ModelMessage[]): ModelMessage[] {
  return messages.map(withoutBreakpoint)
}

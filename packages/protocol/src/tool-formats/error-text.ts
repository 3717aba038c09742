/** The error types the agent tags chat errors with (docs/product/error-texts.md "Chat error types"). */
export const chatErrorTypes = ['ratelimited', 'overloaded', 'internal', 'interrupt'] as const
export type ChatErrorType = (typeof chatErrorTypes)[number]

export const UNKNOWN_ERROR_TEXT = 'An unknown error occurred'
/** Appended to the last error in the chat; clicking it calls continue. */
export const RETRY_HINT = '(click to retry)'

export interface ChatError {
  content?: string | null
  errorType?: string | null
}

/** The text the chat shows for an error event (docs/product/error-texts.md). */
export function chatErrorText(error: ChatError): string {
  const content = error.content?.trim() ?? ''
  switch (error.errorType) {
    case 'ratelimited':
      return 'AI provider is rate limiting requests'
    case 'overloaded':
      return 'AI provider is currently overloaded. Please try again in a moment'
    case 'internal':
      return `Server error: ${content || UNKNOWN_ERROR_TEXT}`
    case 'interrupt':
      return 'User interrupted'
    default:
      return content || UNKNOWN_ERROR_TEXT
  }
}

export function isChatErrorType(value: unknown): value is ChatErrorType {
  return typeof value === 'string' && (chatErrorTypes as readonly string[]).includes(value)
}

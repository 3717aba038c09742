import { cutText } from '@sprout/protocol/text/cut-text.ts'
import type { ChatErrorType } from '@sprout/protocol/tool-formats/error-text.ts'
import { RetryError } from 'ai'

export type ClassifiedProviderError = { errorType: ChatErrorType; message: string }

type ErrorFields = {
  name?: unknown
  message?: unknown
  statusCode?: unknown
  type?: unknown
  code?: unknown
  cause?: unknown
  data?: unknown
  error?: unknown
}

function fieldsOf(error: unknown): ErrorFields {
  return typeof error === 'object' && error !== null ? (error as ErrorFields) : {}
}

/** The provider's own error type, e.g. Anthropic's 'overloaded_error', from a body or stream event. */
function providerErrorType(error: unknown): string | undefined {
  const fields = fieldsOf(error)
  if (typeof fields.type === 'string') return fields.type
  const data = fieldsOf(fields.data)
  const nested = fieldsOf(data.error)
  if (typeof nested.type === 'string') return nested.type
  if (typeof nested.code === 'string') return nested.code
  if (typeof data.type === 'string' && data.type !== 'error') return data.type
  return undefined
}

/** The error and its causes, outermost first (fetch failures nest the socket error two deep). */
function causeChain(error: unknown): ErrorFields[] {
  const chain: ErrorFields[] = []
  let current: unknown = error
  while (current !== undefined && current !== null && chain.length < 6) {
    const fields = fieldsOf(current)
    chain.push(fields)
    current = fields.cause
  }
  return chain
}

function isAbort(error: unknown): boolean {
  return causeChain(error).some(
    (fields) => fields.name === 'AbortError' || fields.name === 'ResponseAborted',
  )
}

const connectionCodes = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'UND_ERR_SOCKET'])

function isConnectionLoss(error: unknown): boolean {
  return causeChain(error).some((fields) => {
    const message = typeof fields.message === 'string' ? fields.message : ''
    return (
      (typeof fields.code === 'string' && connectionCodes.has(fields.code)) ||
      message === 'terminated' ||
      message === 'fetch failed' ||
      /socket hang up|other side closed/i.test(message)
    )
  })
}

/** Long enough for any provider's own message; validation errors can run to 100 kB. */
const MESSAGE_LIMIT = 500

function messageOf(error: unknown): string {
  const message = fieldsOf(error).message
  const text =
    typeof message === 'string' && message.trim()
      ? message.trim()
      : typeof error === 'string' && error.trim()
        ? error.trim()
        : 'Unknown provider error'
  return text.length > MESSAGE_LIMIT ? `${cutText(text, MESSAGE_LIMIT)}...` : text
}

/** Maps a provider failure to the chat error types (docs/product/error-texts.md). */
export function classifyProviderError(error: unknown): ClassifiedProviderError {
  const cause = RetryError.isInstance(error) ? error.lastError : error
  if (isAbort(cause)) return { errorType: 'interrupt', message: 'User interrupted' }
  const fields = fieldsOf(cause)
  const statusCode = typeof fields.statusCode === 'number' ? fields.statusCode : undefined
  const type = providerErrorType(cause)
  const message = messageOf(cause)
  if (statusCode === 429 || type === 'rate_limit_error' || type === 'rate_limit_exceeded') {
    return { errorType: 'ratelimited', message }
  }
  if (statusCode === 529 || statusCode === 503 || type === 'overloaded_error') {
    return { errorType: 'overloaded', message }
  }
  if (isConnectionLoss(cause)) {
    return {
      errorType: 'internal',
      message: 'The connection to the AI provider was lost before the answer was complete.',
    }
  }
  return { errorType: 'internal', message }
}

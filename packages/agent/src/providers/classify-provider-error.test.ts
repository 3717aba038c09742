import { APICallError, RetryError } from 'ai'
import { expect, test } from 'vitest'
import { classifyProviderError } from './classify-provider-error.ts'

const apiError = (statusCode: number, data?: unknown) =>
  new APICallError({
    message: `Status ${statusCode}`,
    url: 'http://provider',
    requestBodyValues: {},
    statusCode,
    data,
  })

test('429 is ratelimited, also after retries', () => {
  expect(classifyProviderError(apiError(429)).errorType).toBe('ratelimited')
  const retried = new RetryError({
    message: 'Failed after 3 attempts',
    reason: 'maxRetriesExceeded',
    errors: [apiError(500), apiError(429)],
  })
  expect(classifyProviderError(retried)).toEqual({
    errorType: 'ratelimited',
    message: 'Status 429',
  })
})

test('529, 503 and overloaded_error are overloaded', () => {
  expect(classifyProviderError(apiError(529)).errorType).toBe('overloaded')
  expect(classifyProviderError(apiError(503)).errorType).toBe('overloaded')
  const streamError = { message: 'Overloaded', type: 'overloaded_error' }
  expect(classifyProviderError(streamError).errorType).toBe('overloaded')
})

test('an abort is the interrupt marker', () => {
  const abort = new DOMException('This operation was aborted', 'AbortError')
  expect(classifyProviderError(abort)).toEqual({
    errorType: 'interrupt',
    message: 'User interrupted',
  })
})

test('anything else is internal with its message, kept short', () => {
  expect(classifyProviderError(apiError(400))).toEqual({
    errorType: 'internal',
    message: 'Status 400',
  })
  const long = classifyProviderError(new Error('x'.repeat(5_000)))
  expect(long.errorType).toBe('internal')
  expect(long.message.length).toBeLessThan(600)
  expect(classifyProviderError(undefined).message).toBe('Unknown provider error')
})

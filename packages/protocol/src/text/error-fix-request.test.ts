import { expect, test } from 'vitest'
import { formatErrorFixRequest, isErrorFixRequest } from './error-fix-request.ts'

const group = {
  id: 'group-1',
  error_type: 'TypeError',
  representative_message: "Cannot read properties of undefined (reading 'length')",
  representative_stack: ['at showHistory (src/App.tsx:12:40)'],
  last_seen_at: '2026-11-25T08:55:00.000Z',
  last_url: 'http://counter.preview.localhost/',
}

test('the message carries each group: message, type, id, last seen, URL and stack', () => {
  expect(formatErrorFixRequest([group])).toBe(
    [
      'Please fix this error in the app:',
      '',
      "Error: Cannot read properties of undefined (reading 'length')",
      'Type: TypeError',
      'Group: group-1',
      'Last seen: 2026-11-25T08:55:00.000Z',
      'URL: http://counter.preview.localhost/',
      'Stack:',
      '  at showHistory (src/App.tsx:12:40)',
    ].join('\n'),
  )
  const two = formatErrorFixRequest([group, { ...group, id: 'group-2', last_url: null }])
  expect(two.startsWith('Please fix these 2 errors in the app:')).toBe(true)
  expect(two).toContain('Group: group-2\nLast seen: 2026-11-25T08:55:00.000Z\nURL: unknown')
})

test('fix requests are recognised, typed or sent by the error list', () => {
  expect(isErrorFixRequest(formatErrorFixRequest([group]))).toBe(true)
  expect(isErrorFixRequest('Fix the error')).toBe(true)
  expect(isErrorFixRequest('can you fix the console errors?')).toBe(true)
  expect(isErrorFixRequest('Build a counter with a bug')).toBe(false)
  expect(isErrorFixRequest('Build an error tracker')).toBe(false)
})

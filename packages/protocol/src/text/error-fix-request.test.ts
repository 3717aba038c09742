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
      'Page: /',
      'Stack:',
      '  at showHistory (src/App.tsx:12:40)',
    ].join('\n'),
  )
  const two = formatErrorFixRequest([group, { ...group, id: 'group-2', last_url: null }])
  expect(two.startsWith('Please fix these 2 errors in the app:')).toBe(true)
  expect(two).toContain('Group: group-2\nLast seen: 2026-11-25T08:55:00.000Z\nPage: unknown')
})

test("the stack is the app's own frames at their workspace paths, not the browser's whole stack", () => {
  const preview = 'http://counter.preview.localhost:3000'
  const browserStack = [
    `at showHistory (${preview}/src/App.tsx?t=1764061200000:15:35)`,
    `at onClick (${preview}/src/components/History.tsx:8:5)`,
    ...Array.from(
      { length: 10 },
      (_, index) =>
        `at react-stack-${index} (${preview}/node_modules/.vite/deps/react-dom_client.js?v=abc:${100 + index}:9)`,
    ),
    `at ${preview}/@vite/client:12:3`,
  ]
  const message = formatErrorFixRequest([
    { ...group, representative_stack: browserStack, last_url: `${preview}/history?from=share` },
  ])
  expect(message).toContain(
    'Page: /history?from=share\nStack:\n  at showHistory (src/App.tsx:15:35)\n  at onClick (src/components/History.tsx:8:5)',
  )
  expect(message).not.toContain('preview.localhost')
  expect(message).not.toContain('node_modules')
  expect(message.split('\n').length).toBeLessThanOrEqual(10)
})

test("Sprout's reporter, React's and Vite's frames are never sent, even without the app's own", () => {
  const preview = 'http://counter.preview.localhost:3000'
  const reactAndVite = [
    `at commitRoot (${preview}/node_modules/.vite/deps/react-dom_client.js?v=abc:9012:3)`,
    `at ${preview}/@vite/client:12:3`,
    `at performReactRefresh (${preview}/@react-refresh:267:29)`,
  ]
  const reporter = `at HTMLDocument.sentryWrapped (${preview}/__sprout/reporter.js:2:7113)`
  const withApp = formatErrorFixRequest([
    {
      ...group,
      representative_stack: [
        reporter,
        `at showHistory (${preview}/src/App.tsx?t=1764061200000:15:35)`,
        ...reactAndVite,
      ],
    },
  ])
  expect(withApp).toContain('Stack:\n  at showHistory (src/App.tsx:15:35)')
  expect(withApp.split('Stack:')[1]?.trim().split('\n')).toHaveLength(1)
  // A console.error from the reporter itself ('Failed to load module script …'): no frame is the
  // app's, so none is sent.
  const reporterOnly = formatErrorFixRequest([
    { ...group, representative_stack: [reporter, ...reactAndVite] },
  ])
  expect(reporterOnly).not.toContain('Stack:')
  expect(reporterOnly).not.toContain('reporter.js')
  // A deployed bundle's frame no map named is still the app's best clue.
  const deployed = formatErrorFixRequest([
    {
      ...group,
      representative_stack: ['at a (https://counter.apps.example.com/assets/index-x1.js:1:4242)'],
    },
  ])
  expect(deployed).toContain('at a (https://counter.apps.example.com/assets/index-x1.js:1:4242)')
})

test('fix requests are recognised, typed or sent by the error list', () => {
  expect(isErrorFixRequest(formatErrorFixRequest([group]))).toBe(true)
  expect(isErrorFixRequest('Fix the error')).toBe(true)
  expect(isErrorFixRequest('can you fix the console errors?')).toBe(true)
  expect(isErrorFixRequest('Build a counter with a bug')).toBe(false)
  expect(isErrorFixRequest('Build an error tracker')).toBe(false)
})

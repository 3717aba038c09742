import { describe, expect, it } from 'vitest'
import { formatBrowserOutput, parseBrowserToolOutput, summarizeBrowserCall } from './browser.ts'
import { summarizeToolCall } from './tool-summary.ts'

describe('browser tool format', () => {
  it('summarizes a call by its path and how many actions it takes', () => {
    expect(summarizeToolCall('browser', { path: '/notes', actions: [{}, {}] })).toBe(
      'Browser: /notes (2 actions)',
    )
    expect(summarizeBrowserCall({ actions: [{}] })).toBe('Browser: / (1 action)')
  })

  it('writes the page for the model: errors first, then the snapshot', () => {
    const text = formatBrowserOutput({
      url: '/',
      title: 'Notes',
      status: 200,
      actions_done: 0,
      action_error: 'Could not click button "Add": no element',
      snapshot: '- heading "Notes" [level=1]',
      console_errors: [],
      failed_requests: ['GET /api/notes: 500 Internal Server Error'],
      blocked: ['http://example.com/pixel'],
      duration_ms: 900,
    })
    expect(text).toBe(
      [
        'Page: / — "Notes" (HTTP 200)',
        'Action failed: Could not click button "Add": no element',
        'Console errors: none',
        'Failed requests:\n- GET /api/notes: 500 Internal Server Error',
        'Blocked (not the app’s dev server):\n- http://example.com/pixel',
        'Accessibility snapshot:\n- heading "Notes" [level=1]',
      ].join('\n'),
    )
  })

  it('parses only an output of its shape', () => {
    expect(parseBrowserToolOutput('text')).toBeUndefined()
    expect(parseBrowserToolOutput({ url: '/' })).toBeUndefined()
  })
})

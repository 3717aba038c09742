import { describe, expect, it } from 'vitest'
import { type ErrorReport, formatErrorReports, parseErrorReports } from './error-reports.ts'

const reports: ErrorReport[] = [
  {
    groupId: 'g_12',
    timeSince: '5m ago',
    url: '/dashboard',
    error: "TypeError: Cannot read properties of undefined (reading 'map')",
    stacktrace: ['at List (src/List.tsx:12:5)', 'at App (src/App.tsx:8:3)'],
  },
  { groupId: 'g_13', timeSince: '2h ago', url: '/', error: 'Error: boom', stacktrace: [] },
]

describe('error_reports_list format', () => {
  it('formats the exact text', () => {
    expect(formatErrorReports(reports)).toBe(
      [
        '<error_report group_id="g_12">',
        'Seen: 5m ago',
        'URL: /dashboard',
        "Error: TypeError: Cannot read properties of undefined (reading 'map')",
        'Stack:',
        'at List (src/List.tsx:12:5)',
        'at App (src/App.tsx:8:3)',
        '</error_report>',
        '<error_report group_id="g_13">',
        'Seen: 2h ago',
        'URL: /',
        'Error: Error: boom',
        '</error_report>',
      ].join('\n'),
    )
  })

  it('round-trips', () => {
    expect(parseErrorReports(formatErrorReports(reports))).toEqual(reports)
    expect(parseErrorReports(formatErrorReports([]))).toEqual([])
  })

  it('reads indented stacks and tolerates missing lines', () => {
    const text =
      'Found 1 error group:\n<error_report group_id="x">\nStack:\n    at a\n\n    at b\n</error_report>'
    expect(parseErrorReports(text)).toEqual([
      { groupId: 'x', timeSince: '', url: '', error: '', stacktrace: ['at a', 'at b'] },
    ])
    expect(parseErrorReports('No errors found')).toEqual([])
  })
})

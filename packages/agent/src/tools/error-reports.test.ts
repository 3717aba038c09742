import { parseErrorReports } from '@sprout/protocol/tool-formats/error-reports.ts'
import { expect, test } from 'vitest'
import { executeTool } from '../testing/execute-tool.ts'
import { errorGroup, fakeErrorReports } from '../testing/fake-error-reports.ts'
import { createAgentTools } from './create-agent-tools.ts'
import { createErrorReportsListTool } from './error-reports-list.ts'
import { createErrorReportsUpdateTool } from './error-reports-update.ts'
import type { ToolContext } from './tool-context.ts'

const now = new Date('2026-11-25T09:00:00.000Z')
const context = (extra: Partial<ToolContext> = {}): ToolContext => ({
  devbox: { files: {} as ToolContext['devbox']['files'], exec: async () => Promise.reject() },
  now: () => now,
  ...extra,
})

test('error_reports_list shows the active groups in the format the chat parses', async () => {
  const errors = fakeErrorReports([
    errorGroup(),
    errorGroup({
      id: 'group-2',
      error_type: 'Error',
      representative_message: 'Error: boom',
      representative_stack: [],
      last_seen_at: '2026-11-22T09:00:00.000Z',
      source: 'server',
      last_url: null,
    }),
    errorGroup({ id: 'group-3', status: 'resolved' }),
  ])
  const tool = createErrorReportsListTool(context({ errorReports: errors.access }))
  const output = await executeTool(tool, {})
  expect(output.split('\n')[0]).toBe('2 active error groups:')
  expect(parseErrorReports(output)).toEqual([
    {
      groupId: 'group-1',
      timeSince: '5m ago (3x, browser)',
      url: 'http://counter.preview.localhost/',
      error: "TypeError: Cannot read properties of undefined (reading 'length')",
      stacktrace: ['at onClick (src/App.tsx:9:32)'],
    },
    {
      groupId: 'group-2',
      timeSince: '3d ago (3x, server)',
      url: '',
      error: 'Error: boom',
      stacktrace: [],
    },
  ])
  expect(await executeTool(tool, { status: 'ignored' })).toBe('No ignored errors.')
  expect(parseErrorReports(await executeTool(tool, { limit: 1 }))).toHaveLength(1)
})

test("error_reports_list gives the app's own frames only, at their workspace paths", async () => {
  const preview = 'http://counter.preview.localhost:3000'
  const errors = fakeErrorReports([
    errorGroup({
      representative_stack: [
        `at HTMLDocument.sentryWrapped (${preview}/__sprout/reporter.js:2:7113)`,
        `at showHistory (src/App.tsx:15:35)`,
        ...Array.from(
          { length: 7 },
          (_, index) =>
            `at react-${index} (${preview}/node_modules/.vite/deps/react-dom_client.js?v=abc:${100 + index}:9)`,
        ),
        `at ${preview}/@vite/client:12:3`,
        `at performReactRefresh (${preview}/@react-refresh:267:29)`,
      ],
    }),
  ])
  const tool = createErrorReportsListTool(context({ errorReports: errors.access }))
  const [report] = parseErrorReports(await executeTool(tool, {}))
  expect(report?.stacktrace).toEqual(['at showHistory (src/App.tsx:15:35)'])
})

test('error_reports_update resolves, suppresses and comments on a group', async () => {
  const errors = fakeErrorReports([errorGroup(), errorGroup({ id: 'group-2' })])
  const tool = createErrorReportsUpdateTool(context({ errorReports: errors.access }))
  const resolved = await executeTool(tool, {
    action: 'resolve',
    group_id: 'group-1',
    comment: 'Guarded the list',
  })
  expect(resolved).toBe(
    "Resolved error group group-1 (now resolved): TypeError: Cannot read properties of undefined (reading 'length')\nComment: Guarded the list",
  )
  await executeTool(tool, { action: 'suppress', group_id: 'group-2' })
  expect(errors.groups.map((group) => group.status)).toEqual(['resolved', 'ignored'])
  await expect(executeTool(tool, { action: 'update', group_id: 'nope' })).rejects.toThrow(
    'No error group nope',
  )
})

test('the error tools are offered only when the run has its application errors', () => {
  expect(Object.keys(createAgentTools(context()))).not.toContain('error_reports_list')
  const tools = Object.keys(
    createAgentTools(context({ errorReports: fakeErrorReports([]).access })),
  )
  expect(tools).toContain('error_reports_list')
  expect(tools).toContain('error_reports_update')
})

import type { BrowserPage, BrowserRequest } from '@sprout/devbox/box-browser/browser-types.ts'
import { describe, expect, it } from 'vitest'
import { executeTool } from '../testing/execute-tool.ts'
import { browserPathRefusal, createBrowserTool, NO_IMAGES_NOTE } from './browser.ts'
import type { ToolContext } from './tool-context.ts'

const page: BrowserPage = {
  url: '/',
  title: 'Notes',
  status: 200,
  actionsDone: 1,
  snapshot: '- heading "Notes" [level=1]\n- text: key sk-secret-123',
  consoleErrors: ['boom sk-secret-123'],
  consoleErrorsDropped: 0,
  failedRequests: ['GET /api/notes: 500 Internal Server Error'],
  failedRequestsDropped: 2,
  blocked: [],
  screenshot: { mediaType: 'image/png', bytes: Buffer.from('png bytes') },
  durationMs: 900,
}

function contextWith(overrides: Partial<ToolContext> = {}) {
  const requests: BrowserRequest[] = []
  const context = {
    devbox: {} as ToolContext['devbox'],
    redact: (text: string) => text.replaceAll('sk-secret-123', '[redacted]'),
    browser: {
      open: async (request: BrowserRequest) => {
        requests.push(request)
        return page
      },
    },
    storeScreenshot: async () => ({ id: 'image-1', width: 1280, height: 800 }),
    ...overrides,
  } satisfies ToolContext
  return { context, requests }
}

describe('browser paths', () => {
  it.each([
    ['http://example.com/', 'not a URL'],
    ['javascript:alert(1)', 'not a URL'],
    ['//example.com/x', 'starting with /'],
    ['notes', 'starting with /'],
    ['/a/../../etc/passwd', 'without .. segments'],
    ['/a/%2e%2e/b', 'without .. segments'],
    ['/a\u0000b', 'no control characters'],
    ['/a\\b', 'no control characters'],
  ])('refuses %j', (path, reason) => {
    expect(browserPathRefusal(path)).toContain(reason)
  })

  it.each(['/', '/notes?tab=open#top', '/a..b/'])('accepts %j', (path) => {
    expect(browserPathRefusal(path)).toBeUndefined()
  })
})

describe('the browser tool', () => {
  it('refuses a URL of another host before opening anything', async () => {
    const { context, requests } = contextWith()
    const tool = createBrowserTool(context)
    await expect(executeTool(tool, { path: 'http://example.com/', actions: [] })).rejects.toThrow(
      "the browser reaches only the app's own dev server",
    )
    expect(requests).toEqual([])
  })

  it('answers the page redacted, with the screenshot by its image id', async () => {
    const { context, requests } = contextWith()
    const output = await executeTool(createBrowserTool(context), {
      path: '/notes',
      actions: [{ action: 'click', role: 'button', name: 'Add' }],
    })
    expect(requests[0]).toMatchObject({
      path: '/notes',
      actions: [{ action: 'click', role: 'button', name: 'Add' }],
    })
    expect(output).toMatchObject({
      url: '/',
      snapshot: '- heading "Notes" [level=1]\n- text: key [redacted]',
      console_errors: ['boom [redacted]'],
      failed_requests: ['GET /api/notes: 500 Internal Server Error', '(2 more)'],
      screenshot: { id: 'image-1', media_type: 'image/png', width: 1280, height: 800, size: 9 },
    })
  })

  it('gives a model that reads images the screenshot as an image part', async () => {
    const { context } = contextWith({ modelReadsImages: true })
    const tool = createBrowserTool(context)
    const output = await executeTool(tool, { path: '/', actions: [] }, { toolCallId: 'call-1' })
    const modelOutput = await tool.toModelOutput?.({
      toolCallId: 'call-1',
      input: { path: '/', actions: [] },
      output,
    })
    expect(modelOutput).toMatchObject({
      type: 'content',
      value: [
        { type: 'text', text: expect.stringContaining('Console errors:\n- boom [redacted]') },
        {
          type: 'file',
          mediaType: 'image/png',
          data: { type: 'data', data: Buffer.from('png bytes').toString('base64') },
        },
      ],
    })
  })

  it('tells a model that cannot read images that a screenshot was taken', async () => {
    const { context } = contextWith({ modelReadsImages: false })
    const tool = createBrowserTool(context)
    const output = await executeTool(tool, { path: '/', actions: [] }, { toolCallId: 'call-2' })
    const modelOutput = await tool.toModelOutput?.({
      toolCallId: 'call-2',
      input: { path: '/', actions: [] },
      output,
    })
    expect(modelOutput).toMatchObject({ type: 'text' })
    const text = (modelOutput as { value: string }).value
    expect(text).toContain('Accessibility snapshot:\n- heading "Notes" [level=1]')
    expect(text.endsWith(NO_IMAGES_NOTE)).toBe(true)
  })
})

import type { BrowserAction, BrowserPage } from '@sprout/devbox/box-browser/browser-types.ts'
import {
  type BrowserToolOutput,
  formatBrowserOutput,
} from '@sprout/protocol/tool-formats/browser.ts'
import { tool } from 'ai'
import { z } from 'zod'
import type { ToolContext } from './tool-context.ts'
import { capToolOutput, ToolError } from './tool-output.ts'

/** Actions one call may take; more belong in an acceptance test. */
const MAX_ACTIONS = 10
/** Characters of the snapshot kept in the output (the chat's copy and the model's). */
const SNAPSHOT_LIMIT = 20_000
export const NO_IMAGES_NOTE = '(A screenshot was taken; this model cannot read images.)'

const locatorFields = {
  role: z
    .string()
    .min(1)
    .max(40)
    .describe('The ARIA role, as in the snapshot: button, link, textbox, checkbox, heading…'),
  name: z
    .string()
    .max(200)
    .optional()
    .describe('The accessible name, as in the snapshot (a case-insensitive substring)'),
  exact: z
    .boolean()
    .optional()
    .describe('Match the name exactly, when a substring matches several'),
}

export const browserInputSchema = z.object({
  path: z
    .string()
    .max(2000)
    .default('/')
    .describe("A path of the app's preview, starting with / (like /notes?tab=open)"),
  actions: z
    .array(
      z.discriminatedUnion('action', [
        z.object({ action: z.literal('click'), ...locatorFields }),
        z.object({
          action: z.literal('fill'),
          ...locatorFields,
          value: z.string().max(5000).describe('The text to type into the field'),
        }),
        z.object({
          action: z.literal('press'),
          ...locatorFields,
          role: locatorFields.role.optional().describe('The element to press on; the page without'),
          key: z
            .string()
            .min(1)
            .max(40)
            .describe('A key as Playwright names it: Enter, Tab, Escape'),
        }),
      ]),
    )
    .max(MAX_ACTIONS)
    .default([])
    .describe('Done in order after the page loads; the first that fails stops the rest'),
})
export type BrowserInput = z.infer<typeof browserInputSchema>

/**
 * Why a path is refused, or undefined: the browser opens only the app's own pages, so a path is
 * a path (no scheme, no host, no `..`, no control characters).
 */
export function browserPathRefusal(path: string): string | undefined {
  const hint = "Give a path of the app's preview starting with / (like /notes)"
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (/[\u0000-\u001f\u007f\\]/.test(path)) return `${hint}: no control characters or backslashes.`
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) {
    return `${hint}, not a URL: the browser reaches only the app's own dev server.`
  }
  if (!path.startsWith('/') || path.startsWith('//')) return `${hint}.`
  const pathname = path.split(/[?#]/, 1)[0] ?? ''
  if (pathname.split('/').some((segment) => /^(\.|%2e){2}$/i.test(segment))) {
    return `${hint}, without .. segments.`
  }
  return undefined
}

/** The call's output for the chat and the history: texts redacted, the screenshot by id. */
export function browserToolOutput(
  page: BrowserPage,
  screenshot: BrowserToolOutput['screenshot'],
  redact: (text: string) => string,
): BrowserToolOutput {
  const withDropped = (entries: string[], dropped: number) =>
    dropped > 0 ? [...entries, `(${dropped} more)`] : entries
  return {
    url: redact(page.url),
    title: redact(page.title),
    ...(page.status === undefined ? {} : { status: page.status }),
    actions_done: page.actionsDone,
    ...(page.actionError ? { action_error: redact(page.actionError) } : {}),
    snapshot: capToolOutput(redact(page.snapshot), { limit: SNAPSHOT_LIMIT }),
    console_errors: withDropped(page.consoleErrors, page.consoleErrorsDropped).map(redact),
    failed_requests: withDropped(page.failedRequests, page.failedRequestsDropped).map(redact),
    blocked: page.blocked.map(redact),
    ...(screenshot ? { screenshot } : {}),
    duration_ms: page.durationMs,
  }
}

/**
 * docs/product/tool-calls.md "browser": opens a page of the app in Chromium inside its box, acts
 * by role and name, and answers its snapshot, errors and screenshot (an image part for a model
 * that reads images).
 */
export function createBrowserTool(context: ToolContext) {
  // The screenshots of this run's calls, for the model's next step: the output names them by id.
  const screenshots = new Map<string, { mediaType: string; base64: string }>()
  const redact = context.redact ?? ((text: string) => text)
  return tool({
    description:
      "Open a page of the app's preview in a real browser (Chromium, 1280×800), optionally click, " +
      'fill or press on elements found by ARIA role and name, and get its accessibility snapshot, ' +
      'console errors, failed requests and a screenshot. Use it to see that a change works as the ' +
      'user would; it reaches only the app itself. Each call loads the page afresh.',
    inputSchema: browserInputSchema,
    execute: async ({ path, actions }, { toolCallId, abortSignal }): Promise<BrowserToolOutput> => {
      const browser = context.browser
      if (!browser) throw new ToolError('The browser is not available in this conversation.')
      const refusal = browserPathRefusal(path)
      if (refusal) throw new ToolError(refusal)
      let page: BrowserPage
      try {
        page = await browser.open({
          path,
          actions: actions as BrowserAction[],
          ...(abortSignal ? { signal: abortSignal } : {}),
        })
      } catch (error) {
        throw new ToolError(redact(error instanceof Error ? error.message : String(error)))
      }
      const shot = page.screenshot
      if (!shot) return browserToolOutput(page, undefined, redact)
      screenshots.set(toolCallId, {
        mediaType: shot.mediaType,
        base64: shot.bytes.toString('base64'),
      })
      const stored = await context.storeScreenshot?.(shot.bytes).catch(() => undefined)
      return browserToolOutput(
        page,
        {
          ...(stored ? { id: stored.id } : {}),
          media_type: shot.mediaType,
          width: stored?.width ?? 1280,
          height: stored?.height ?? 800,
          size: shot.bytes.length,
        },
        redact,
      )
    },
    toModelOutput: ({ toolCallId, output }) => {
      const text = formatBrowserOutput(output)
      const image = screenshots.get(toolCallId)
      if (!output.screenshot) return { type: 'text', value: text }
      if (!context.modelReadsImages) return { type: 'text', value: `${text}\n${NO_IMAGES_NOTE}` }
      // A call of an earlier run: its screenshot is in the chat, no longer in memory.
      if (!image) return { type: 'text', value: text }
      return {
        type: 'content',
        value: [
          { type: 'text', text },
          { type: 'file', mediaType: image.mediaType, data: { type: 'data', data: image.base64 } },
        ],
      }
    },
  })
}

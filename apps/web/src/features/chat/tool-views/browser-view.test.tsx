import { createBlock } from '@sprout/protocol/stream/block-list.ts'
import type { BrowserToolOutput } from '@sprout/protocol/tool-formats/browser.ts'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, click, render } from '../../../testing/render.tsx'
import { ToolCallView } from './tool-call-view.tsx'

afterEach(cleanup)

const output: BrowserToolOutput = {
  url: '/notes',
  title: 'Notes',
  status: 200,
  actions_done: 1,
  action_error: 'Could not click button "Save": no element with that role and name on the page',
  snapshot: '- heading "Notes" [level=1]',
  console_errors: ['Uncaught TypeError: notes is undefined'],
  failed_requests: ['GET /api/notes: 500 Internal Server Error'],
  blocked: [],
  screenshot: { id: 'shot-1', media_type: 'image/png', width: 1280, height: 800, size: 5000 },
  duration_ms: 1400,
}

const input = {
  path: '/notes',
  actions: [
    { action: 'fill', role: 'textbox', name: 'Note', value: 'milk' },
    { action: 'click', role: 'button', name: 'Save' },
  ],
}

function renderBrowserCall() {
  return render(
    <ToolCallView
      block={createBlock({
        id: 'tool-browser',
        type: 'tool',
        role: 'assistant',
        toolName: 'browser',
        toolInput: input,
        toolOutput: output,
        isComplete: true,
        isStreaming: false,
      })}
    />,
  )
}

describe('the browser tool call', () => {
  it('shows the page, its actions, the screenshot, errors and failed requests, open', () => {
    const container = renderBrowserCall()
    expect(container.textContent).toContain('Browser: /notes (2 actions)')
    const actions = [...container.querySelectorAll('[aria-label="Actions"] li')]
    expect(actions.map((each) => each.textContent)).toEqual([
      'fill textbox "Note" with "milk"',
      'click button "Save"',
    ])
    expect(container.textContent).toContain('Could not click button "Save"')
    const image = container.querySelector('img')
    expect(image?.getAttribute('src')).toBe('/api/images/shot-1')
    expect(container.querySelector('[aria-label="Console errors"]')?.textContent).toContain(
      'notes is undefined',
    )
    expect(container.querySelector('[aria-label="Failed requests"]')?.textContent).toBe(
      'GET /api/notes: 500 Internal Server Error',
    )
    expect(container.querySelector('details summary')?.textContent).toBe('Accessibility snapshot')
  })

  it('opens the screenshot at full size from its thumbnail', () => {
    const container = renderBrowserCall()
    const thumbnail = container.querySelector('button[title="Open the screenshot"]')
    if (!thumbnail) throw new Error('no thumbnail')
    click(thumbnail)
    const dialog = document.querySelector('[role="dialog"]')
    expect(dialog?.querySelector('img')?.getAttribute('alt')).toBe('Screenshot of /notes')
  })
})

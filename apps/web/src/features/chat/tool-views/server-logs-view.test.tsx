import { createBlock } from '@sprout/protocol/stream/block-list.ts'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, click, render } from '../../../testing/render.tsx'
import { ToolCallView } from './tool-call-view.tsx'

afterEach(cleanup)

function renderServerLogs(output: unknown) {
  const container = render(
    <ToolCallView
      block={createBlock({
        id: 'tool-server-logs',
        type: 'tool',
        role: 'assistant',
        toolName: 'server_logs',
        toolInput: { lines: 50 },
        toolOutput: output,
        isComplete: true,
        isStreaming: false,
      })}
    />,
  )
  const summary = container.querySelector('button[aria-expanded]')
  expect(summary?.textContent).toBe('Server logs')
  click(summary)
  return container
}

describe('server_logs tool view', () => {
  it("shows the dev server's lines in a monospace block", () => {
    const container = renderServerLogs('VITE ready\nError: no such table: entries')
    const block = container.querySelector('[data-testid="server-logs"] pre')
    expect(block?.className).toContain('font-mono')
    expect(block?.textContent).toBe('VITE ready\nError: no such table: entries')
  })

  it("says '(no output)' when the dev server printed nothing", () => {
    for (const output of ['(no output)', '']) {
      const container = renderServerLogs(output)
      const view = container.querySelector('[data-testid="server-logs"]')
      expect(view?.textContent).toBe('(no output)')
      expect(view?.querySelector('pre')).toBeNull()
      cleanup()
    }
  })
})

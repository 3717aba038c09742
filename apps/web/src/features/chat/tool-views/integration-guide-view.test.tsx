import { createBlock } from '@sprout/protocol/stream/block-list.ts'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, render } from '../../../testing/render.tsx'
import { ToolCallView } from './tool-call-view.tsx'

afterEach(cleanup)

// The model's spelling: the preset's id (issue 20: the title read 'linear Integration Guide').
const input = { integration: 'linear', question: 'How do I list my issues?' }

function renderGuide(output: unknown, isStreaming = false) {
  return render(
    <ToolCallView
      block={createBlock({
        id: 'tool-integration-guide',
        type: 'tool',
        role: 'assistant',
        toolName: 'integration_guide',
        toolInput: input,
        toolOutput: output,
        isComplete: !isStreaming,
        isStreaming,
      })}
    />,
  )
}

describe('integration_guide tool view', () => {
  it('is an open panel: its title, the question, the Expert Response badge and the rendered answer', () => {
    const container = renderGuide(
      "## Pagination\n\nPass `after: endCursor` while **hasNextPage**.\n\n```ts\nconst token = await getAccessToken('linear')\n```",
    )
    const summary = container.querySelector('button[aria-expanded]')
    expect(summary?.textContent).toContain('Linear Integration Guide')
    expect(summary?.getAttribute('aria-expanded')).toBe('true')
    expect(container.textContent).toContain('How do I list my issues?')
    expect(container.textContent).toContain('Expert Response')
    // Markdown rendered: the heading and the bold words without their marks.
    expect(container.textContent).toContain('Pagination')
    expect(container.textContent).not.toContain('## ')
    expect([...container.querySelectorAll('strong')].map((node) => node.textContent)).toContain(
      'hasNextPage',
    )
    expect(container.querySelector('pre')?.textContent).toContain("getAccessToken('linear')")
    expect(container.textContent).not.toContain('```')
  })

  it("titles the panel with the integration's display name, case and all, and renders links", () => {
    const container = renderGuide(
      'See [the GraphQL API](https://linear.app/developers/graphql) for every field.',
    )
    const title = container.querySelector('button[aria-expanded]')?.textContent ?? ''
    expect(title).toContain('Linear Integration Guide')
    expect(title).not.toContain('linear Integration Guide')
    const link = container.querySelector('a')
    expect(link?.textContent).toBe('the GraphQL API')
    expect(link?.getAttribute('href')).toBe('https://linear.app/developers/graphql')
    expect(container.textContent).not.toContain('](')
  })

  it("reads an object's response, answer or content", () => {
    const container = renderGuide({ answer: 'Use the **GraphQL** endpoint.' })
    expect(container.querySelector('strong')?.textContent).toBe('GraphQL')
  })

  it("says 'Generating <integration> guide...' while waiting", () => {
    const container = renderGuide(undefined, true)
    expect(container.textContent).toContain('Generating Linear guide...')
    expect(container.textContent).toContain('How do I list my issues?')
    expect(container.textContent).not.toContain('Expert Response')
  })
})

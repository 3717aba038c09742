import { act, useState } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, click, render } from '../../testing/render.tsx'
import { PanePanel, type PaneTab, PaneTabs } from './pane-tabs.tsx'

afterEach(cleanup)

type Pane = 'chat' | 'preview'
const panes: readonly PaneTab<Pane>[] = [
  { id: 'chat', label: 'Chat' },
  { id: 'preview', label: 'Preview' },
]

function Panes({ tabbed }: { tabbed: boolean }) {
  const [pane, setPane] = useState<Pane>('chat')
  return (
    <>
      {tabbed && <PaneTabs label="Builder" tabs={panes} selected={pane} onSelect={setPane} />}
      <PanePanel id="chat" tabbed={tabbed} selected={pane === 'chat'}>
        <textarea aria-label="Message" defaultValue="" />
      </PanePanel>
      <PanePanel id="preview" tabbed={tabbed} selected={pane === 'preview'}>
        <p>The preview</p>
      </PanePanel>
    </>
  )
}

const tab = (name: string) =>
  Array.from(document.querySelectorAll<HTMLElement>('[role="tab"]')).find(
    (candidate) => candidate.textContent === name,
  )
const panel = (id: string) => document.getElementById(`${id}-panel`)

function press(target: Element, key: string) {
  act(() => {
    target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }))
  })
}

describe('PaneTabs', () => {
  it('shows one pane at a time and keeps the other mounted with what it holds', () => {
    render(<Panes tabbed />)
    expect(tab('Chat')?.getAttribute('aria-selected')).toBe('true')
    expect(tab('Chat')?.getAttribute('aria-controls')).toBe('chat-panel')
    expect(panel('chat')?.getAttribute('aria-labelledby')).toBe('chat-tab')
    expect(panel('preview')?.classList.contains('hidden')).toBe(true)

    const message = document.querySelector('textarea')
    if (!message) throw new Error('No message box')
    message.value = 'half a thought'
    click(tab('Preview'))
    expect(tab('Preview')?.getAttribute('aria-selected')).toBe('true')
    expect(panel('chat')?.classList.contains('hidden')).toBe(true)
    expect(panel('preview')?.classList.contains('hidden')).toBe(false)
    click(tab('Chat'))
    expect(document.querySelector('textarea')).toBe(message)
    expect(message.value).toBe('half a thought')
  })

  it('moves between the tabs with the arrow keys, Home and End, one tab stop', () => {
    render(<Panes tabbed />)
    expect(tab('Chat')?.tabIndex).toBe(0)
    expect(tab('Preview')?.tabIndex).toBe(-1)
    press(tab('Chat') as HTMLElement, 'ArrowRight')
    expect(tab('Preview')?.getAttribute('aria-selected')).toBe('true')
    expect(document.activeElement).toBe(tab('Preview'))
    press(tab('Preview') as HTMLElement, 'ArrowRight')
    expect(tab('Chat')?.getAttribute('aria-selected')).toBe('true')
    press(tab('Chat') as HTMLElement, 'End')
    expect(tab('Preview')?.getAttribute('aria-selected')).toBe('true')
    press(tab('Preview') as HTMLElement, 'Home')
    expect(tab('Chat')?.getAttribute('aria-selected')).toBe('true')
  })

  it('side by side, the panes are plain boxes, both shown', () => {
    render(<Panes tabbed={false} />)
    expect(document.querySelector('[role="tablist"]')).toBeNull()
    expect(document.querySelector('[role="tabpanel"]')).toBeNull()
    expect(document.body.textContent).toContain('The preview')
    expect(document.querySelector('.hidden')).toBeNull()
  })
})

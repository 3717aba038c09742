import { act, useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render } from '../../testing/render.tsx'
import { ChatInput } from './chat-input.tsx'

afterEach(cleanup)

function Controlled(props: { onSubmit: (text: string) => void; onEscape: () => void }) {
  const [value, setValue] = useState('')
  return (
    <ChatInput
      value={value}
      onChange={setValue}
      onSubmit={props.onSubmit}
      onEscape={props.onEscape}
      placeholder="Message"
      isRunning={false}
    />
  )
}

function type(textarea: HTMLTextAreaElement, value: string) {
  act(() => {
    const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set
    setter?.call(textarea, value)
    textarea.dispatchEvent(new Event('input', { bubbles: true }))
  })
}

function press(textarea: HTMLTextAreaElement, key: string, shiftKey = false) {
  const event = new KeyboardEvent('keydown', { key, shiftKey, bubbles: true, cancelable: true })
  act(() => {
    textarea.dispatchEvent(event)
  })
  return event
}

describe('ChatInput', () => {
  it('sends the trimmed text on Enter, adds a line on Shift+Enter, ignores blank text', () => {
    const onSubmit = vi.fn()
    const container = render(<Controlled onSubmit={onSubmit} onEscape={() => {}} />)
    const textarea = container.querySelector('textarea') as HTMLTextAreaElement
    type(textarea, '   ')
    press(textarea, 'Enter')
    expect(onSubmit).not.toHaveBeenCalled()
    type(textarea, '  Add a footer  ')
    expect(press(textarea, 'Enter', true).defaultPrevented).toBe(false)
    expect(onSubmit).not.toHaveBeenCalled()
    expect(press(textarea, 'Enter').defaultPrevented).toBe(true)
    expect(onSubmit).toHaveBeenCalledWith('Add a footer', [])
  })

  it('hands Escape to the chat', () => {
    const onEscape = vi.fn()
    const container = render(<Controlled onSubmit={() => {}} onEscape={onEscape} />)
    press(container.querySelector('textarea') as HTMLTextAreaElement, 'Escape')
    expect(onEscape).toHaveBeenCalledOnce()
  })

  it('keeps its height between 24 and 100 px', () => {
    const container = render(<Controlled onSubmit={() => {}} onEscape={() => {}} />)
    const textarea = container.querySelector('textarea') as HTMLTextAreaElement
    const scrollHeight = vi.spyOn(textarea, 'scrollHeight', 'get')
    scrollHeight.mockReturnValue(0)
    type(textarea, 'a')
    expect(textarea.style.height).toBe('24px')
    scrollHeight.mockReturnValue(60)
    type(textarea, 'a\nb\nc')
    expect(textarea.style.height).toBe('60px')
    scrollHeight.mockReturnValue(400)
    type(textarea, 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj')
    expect(textarea.style.height).toBe('100px')
    expect(textarea.style.overflowY).toBe('auto')
  })
})

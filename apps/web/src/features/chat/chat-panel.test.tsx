import { createBlocksState } from '@sprout/protocol/stream/blocks-state.ts'
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Dialog } from '../../components/ui/dialog.tsx'
import { cleanup, render } from '../../testing/render.tsx'
import { ChatPanel } from './chat-panel.tsx'

afterEach(cleanup)

function pressEscape(target: Element) {
  act(() => {
    target.dispatchEvent(
      new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }),
    )
  })
}

function renderPanel(onEscape: () => void, dialogOpen = false) {
  return render(
    <>
      <ChatPanel
        state={{ ...createBlocksState(), isRunning: true }}
        draft=""
        onDraftChange={() => {}}
        onSend={() => {}}
        onEscape={onEscape}
        onInterrupt={() => {}}
        placeholder="Message"
        workingText="Working..."
        emptyState={null}
      />
      <p data-testid="elsewhere">The preview pane, say</p>
      <Dialog open={dialogOpen} title="Vault Secrets" onClose={() => {}}>
        <input aria-label="Secret" />
      </Dialog>
    </>,
  )
}

describe('Escape on the chat screen', () => {
  it('interrupts from anywhere: the page itself, the transcript, another pane', () => {
    const onEscape = vi.fn()
    const container = renderPanel(onEscape)
    pressEscape(document.body)
    pressEscape(container.querySelector('[data-testid="chat-transcript"]') as Element)
    pressEscape(container.querySelector('[data-testid="elsewhere"]') as Element)
    expect(onEscape).toHaveBeenCalledTimes(3)
  })

  it('counts once when the chat input handles it', () => {
    const onEscape = vi.fn()
    const container = renderPanel(onEscape)
    pressEscape(container.querySelector('textarea') as Element)
    expect(onEscape).toHaveBeenCalledOnce()
  })

  it('leaves it to an open dialog', () => {
    const onEscape = vi.fn()
    renderPanel(onEscape, true)
    pressEscape(document.querySelector('[role="dialog"] input') as Element)
    pressEscape(document.body)
    expect(onEscape).not.toHaveBeenCalled()
  })
})

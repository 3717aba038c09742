import type { ChatImage } from '@sprout/protocol/api/images.ts'
import { applyStreamEnvelope } from '@sprout/protocol/stream/apply-stream-envelope.ts'
import { type BlocksState, createBlocksState } from '@sprout/protocol/stream/blocks-state.ts'
import { reduceBlocks } from '@sprout/protocol/stream/reduce-blocks.ts'
import { act } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { buttonNamed, cleanup, render, rerender } from '../../../testing/render.tsx'
import { ChatTranscript } from '../chat-transcript.tsx'

// docs/product/images.md "Showing and keeping": a message's images in the transcript.

afterEach(cleanup)

const screenshot: ChatImage = {
  id: 'image-1',
  media_type: 'image/png',
  width: 640,
  height: 480,
  size: 20_000,
}
const photo: ChatImage = {
  id: 'image-2',
  media_type: 'image/jpeg',
  width: 13,
  height: 9,
  size: 700,
}

const echoed = (images: ChatImage[]): BlocksState =>
  applyStreamEnvelope(createBlocksState(), {
    seq: 1,
    runId: null,
    chunk: { type: 'data-user-message', data: { id: 'm1', text: 'Like these', images } },
  })

const transcriptOf = (state: BlocksState) => (
  <ChatTranscript state={state} emptyState={null} workingText="Working..." />
)
const show = (state: BlocksState) => render(transcriptOf(state))

const thumbnails = () =>
  [...document.querySelectorAll('[data-testid="user-message"] button img')].map((image) => ({
    alt: image.getAttribute('alt'),
    src: image.getAttribute('src'),
  }))

function thumbnailButton(alt: string): HTMLButtonElement {
  const image = document.querySelector(`[data-testid="user-message"] button img[alt="${alt}"]`)
  const button = image?.closest('button')
  if (!button) throw new Error(`No thumbnail ${alt}`)
  return button
}

const dialog = () => document.querySelector('[role="dialog"]')

function pressEscape() {
  act(() => {
    ;(document.activeElement ?? document.body).dispatchEvent(
      new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }),
    )
  })
}

describe("a message's images in the transcript", () => {
  it('shows each as a thumbnail under the text, described', () => {
    show(echoed([screenshot, photo]))
    expect(thumbnails()).toEqual([
      { alt: 'Attached image 1 of 2, PNG 640 × 480', src: '/api/images/image-1' },
      { alt: 'Attached image 2 of 2, JPEG 13 × 9', src: '/api/images/image-2' },
    ])
  })

  it('shows the images of the message this tab sent before its echo, and once after it', () => {
    const local = reduceBlocks(createBlocksState(), {
      type: 'local-user-message',
      text: 'Like these',
      clientId: 'c1',
      images: [screenshot],
    })
    const container = show(local)
    expect(thumbnails()).toHaveLength(1)
    const withEcho = applyStreamEnvelope(local, {
      seq: 1,
      runId: null,
      chunk: {
        type: 'data-user-message',
        data: { id: 'm1', text: 'Like these', clientId: 'c1', images: [screenshot] },
      },
    })
    rerender(container, transcriptOf(withEcho))
    expect(document.querySelectorAll('[data-testid="user-message"]')).toHaveLength(1)
    expect(thumbnails()).toHaveLength(1)
  })

  it('opens the whole image in a dialog; Escape or Close puts it away and focus comes back', () => {
    show(echoed([screenshot, photo]))
    const second = thumbnailButton('Attached image 2 of 2, JPEG 13 × 9')
    second.focus()
    act(() => second.click())
    expect(dialog()?.querySelector('h2')?.textContent).toBe('Attached image 2 of 2')
    const whole = dialog()?.querySelector('img')
    expect(whole?.getAttribute('src')).toBe('/api/images/image-2')
    expect(whole?.getAttribute('alt')).toBe('Attached image 2 of 2, JPEG 13 × 9')
    expect(document.activeElement?.textContent).toBe('Close')
    pressEscape()
    expect(dialog()).toBeNull()
    expect(document.activeElement).toBe(second)

    const first = thumbnailButton('Attached image 1 of 2, PNG 640 × 480')
    first.focus()
    act(() => first.click())
    act(() => buttonNamed('Close', dialog()).click())
    expect(dialog()).toBeNull()
    expect(document.activeElement).toBe(first)
  })
})
